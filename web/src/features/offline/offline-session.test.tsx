// Who the service worker keeps the reading list for, and what a page without a worker clears:
// a guest's page never loads the offline store (nor opens IndexedDB) unless a signed-in reader
// was told to a worker in this browser before.
import { waitFor } from '@testing-library/react';
import { installFakeServiceWorker } from '@/test/fake-service-worker';
import { guestAuth, renderWithProviders, signedInAuth } from '@/test/render';
import { KEPT_MARK, OfflineSession } from './offline-session';

const cleared = vi.fn(() => Promise.resolve());
vi.mock('@/lib/offline-db', () => ({ clearPersonalData: () => cleared() }));
vi.mock('./queue', () => ({ startQueueClient: vi.fn() }));

const worker = installFakeServiceWorker();
beforeEach(() => {
  localStorage.clear();
  cleared.mockClear();
  worker.sent.length = 0;
});

describe('OfflineSession', () => {
  it('tells the worker who is signed in and remembers that something may be kept', async () => {
    worker.running(true);
    renderWithProviders(<OfflineSession />, { preloadedState: { auth: signedInAuth() } });
    await waitFor(() => expect(worker.sent).toContainEqual({ type: 'OFFLINE_SESSION', userId: 'u1' }));
    expect(localStorage.getItem(KEPT_MARK)).toBe('1');
  });

  it("never opens the offline store on a guest's page when nothing was ever kept", async () => {
    worker.running(false);
    renderWithProviders(<OfflineSession />, { preloadedState: { auth: guestAuth() } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cleared).not.toHaveBeenCalled();
  });

  it('clears what an earlier worker kept when no worker runs the page, once', async () => {
    localStorage.setItem(KEPT_MARK, '1');
    worker.running(false);
    renderWithProviders(<OfflineSession />, { preloadedState: { auth: guestAuth() } });
    await waitFor(() => expect(cleared).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(localStorage.getItem(KEPT_MARK)).toBeNull());
  });

  it('leaves clearing to the worker when one runs the page', async () => {
    localStorage.setItem(KEPT_MARK, '1');
    worker.running(true);
    renderWithProviders(<OfflineSession />, { preloadedState: { auth: guestAuth() } });
    await waitFor(() => expect(worker.sent).toContainEqual({ type: 'OFFLINE_SESSION', userId: null }));
    expect(cleared).not.toHaveBeenCalled();
  });
});
