// Registering the service worker, finding a new version, and the update prompt.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as browser from '@/lib/browser';
import { SKIP_WAITING, TAKE_OVER_TIMEOUT_MS } from './apply-update';
import { registerServiceWorker, SERVICE_WORKER_URL } from './register-service-worker';
import { UpdatePromptRegion as UpdatePrompt } from './service-worker-client';
import { resetUpdateState } from './update-state';

/** A worker: its state changes on demand, and what it is sent is kept. */
class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  readonly messages: unknown[] = [];
  postMessage(message: unknown) {
    this.messages.push(message);
  }
  become(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  update = vi.fn(() => Promise.resolve());
  /** A new version starts installing. */
  found(worker: FakeWorker) {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
  }
}

class FakeContainer extends EventTarget {
  controller: object | null;
  readonly registration = new FakeRegistration();
  register = vi.fn(() => Promise.resolve(this.registration));
  constructor({ controlled }: { controlled: boolean }) {
    super();
    this.controller = controlled ? {} : null;
  }
}

function asContainer(fake: FakeContainer) {
  return fake as unknown as ServiceWorkerContainer;
}

beforeEach(() => {
  resetUpdateState();
});

describe('registering the service worker', () => {
  it('registers /sw.js for the whole site, never serving the script itself from the HTTP cache', async () => {
    const container = new FakeContainer({ controlled: false });
    await registerServiceWorker(asContainer(container));
    expect(container.register).toHaveBeenCalledWith(SERVICE_WORKER_URL, { scope: '/', updateViaCache: 'none' });
  });

  it('says nothing about the first worker: it takes over by itself', async () => {
    const container = new FakeContainer({ controlled: false });
    render(<UpdatePrompt />);
    await registerServiceWorker(asContainer(container));
    const first = new FakeWorker();
    act(() => {
      container.registration.found(first);
      first.become('installed');
    });
    expect(screen.getByTestId('update-prompt')).toBeEmptyDOMElement();
  });

  it('announces a new version once it has installed, and one that was already waiting', async () => {
    const container = new FakeContainer({ controlled: true });
    render(<UpdatePrompt />);
    await registerServiceWorker(asContainer(container));
    const next = new FakeWorker();
    act(() => container.registration.found(next));
    expect(screen.getByTestId('update-prompt')).toBeEmptyDOMElement();
    act(() => next.become('installed'));
    expect(await screen.findByText('A new version of Pressroom is ready.')).toBeInTheDocument();

    act(() => resetUpdateState());
    const again = new FakeContainer({ controlled: true });
    again.registration.waiting = new FakeWorker();
    await act(() => registerServiceWorker(asContainer(again)));
    expect(await screen.findByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});

describe('the update prompt', () => {
  async function promptFor(worker: FakeWorker, container: FakeContainer) {
    render(<UpdatePrompt />);
    await registerServiceWorker(asContainer(container));
    act(() => {
      container.registration.found(worker);
      worker.become('installed');
    });
    return screen.findByRole('button', { name: 'Reload' });
  }

  it('is a polite status region, and never reloads the page by itself', async () => {
    const reload = vi.spyOn(browser, 'reloadPage').mockImplementation(() => {});
    const container = new FakeContainer({ controlled: true });
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { serviceWorker: container }));
    const worker = new FakeWorker();
    await promptFor(worker, container);
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveTextContent('A new version of Pressroom is ready.');
    // Another tab applied the update: this one keeps its page (and what is typed in it).
    act(() => {
      container.dispatchEvent(new Event('controllerchange'));
    });
    expect(reload).not.toHaveBeenCalled();
  });

  it('Reload asks the waiting worker to take over and reloads once it has', async () => {
    const reload = vi.spyOn(browser, 'reloadPage').mockImplementation(() => {});
    const container = new FakeContainer({ controlled: true });
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { serviceWorker: container }));
    const worker = new FakeWorker();
    const button = await promptFor(worker, container);
    await userEvent.click(button);
    expect(worker.messages).toEqual([SKIP_WAITING]);
    expect(reload).not.toHaveBeenCalled();
    act(() => {
      container.dispatchEvent(new Event('controllerchange'));
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('Reload reloads anyway when the new worker does not take over in time', async () => {
    const reload = vi.spyOn(browser, 'reloadPage').mockImplementation(() => {});
    const container = new FakeContainer({ controlled: true });
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { serviceWorker: container }));
    const button = await promptFor(new FakeWorker(), container);
    vi.useFakeTimers();
    try {
      act(() => button.click());
      expect(reload).not.toHaveBeenCalled();
      act(() => {
        vi.advanceTimersByTime(TAKE_OVER_TIMEOUT_MS);
      });
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('Later hides it until the next new version', async () => {
    const container = new FakeContainer({ controlled: true });
    await promptFor(new FakeWorker(), container);
    await userEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.getByTestId('update-prompt')).toBeEmptyDOMElement();
    const newer = new FakeWorker();
    act(() => {
      container.registration.found(newer);
      newer.become('installed');
    });
    expect(await screen.findByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});
