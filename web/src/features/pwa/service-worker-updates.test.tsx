// When the service worker is registered: at idle when one already runs the page, and a first
// install FIRST_INSTALL_DELAY_MS later, so its downloads stay out of the reader's first seconds.
import { FIRST_INSTALL_DELAY_MS, whenWorkerMayStart } from './service-worker-updates';

const container = (controlled: boolean) => ({ controller: controlled ? {} : null }) as unknown as ServiceWorkerContainer;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('whenWorkerMayStart', () => {
  it('starts at idle when a worker already runs the page', () => {
    const work = vi.fn();
    whenWorkerMayStart(work, container(true));
    vi.advanceTimersByTime(2500);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('holds a first install until FIRST_INSTALL_DELAY_MS after idle', () => {
    const work = vi.fn();
    whenWorkerMayStart(work, container(false));
    vi.advanceTimersByTime(2500);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(FIRST_INSTALL_DELAY_MS);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('does nothing once cancelled', () => {
    const work = vi.fn();
    const cancel = whenWorkerMayStart(work, container(false));
    vi.advanceTimersByTime(2500);
    cancel();
    vi.advanceTimersByTime(FIRST_INSTALL_DELAY_MS);
    expect(work).not.toHaveBeenCalled();
  });
});
