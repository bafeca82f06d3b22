import { act } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { useReadingTracker } from './use-reading-tracker';

function Reader({ postId }: { postId: string }) {
  useReadingTracker(postId);
  return null;
}

describe('useReadingTracker', () => {
  let visibility: DocumentVisibilityState = 'visible';
  beforeEach(() => {
    vi.useFakeTimers();
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts only the visible time and sends it when the reader leaves', async () => {
    mockApi.on('POST', '/post/time-spent/p1', { body: { duration: 7 } });
    const { store, unmount } = renderWithProviders(<Reader postId="p1" />, { preloadedState: { auth: signedInAuth() } });
    expect(store.getState().posts.tracking).toMatchObject({ postId: 'p1', isTracking: true });
    await act(() => vi.advanceTimersByTimeAsync(4000));
    // Hidden for a minute: that time does not count, and what was read so far is sent.
    visibility = 'hidden';
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    visibility = 'visible';
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await act(() => vi.advanceTimersByTimeAsync(3000));
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(0));
    const sent = mockApi.calls('POST', '/post/time-spent/p1').map((r) => r.body);
    expect(sent).toEqual([{ duration: 4 }, { duration: 3 }]);
    expect(store.getState().posts.tracking.isTracking).toBe(false);
  });
});
