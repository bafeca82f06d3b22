import { showAppBadge } from './app-badge';

describe('showAppBadge', () => {
  it('sets the count, clears it at zero, and ignores a browser without the API or one that refuses', async () => {
    const setAppBadge = vi.fn(() => Promise.resolve());
    const clearAppBadge = vi.fn(() => Promise.resolve());
    showAppBadge(3, { setAppBadge, clearAppBadge });
    expect(setAppBadge).toHaveBeenCalledWith(3);
    showAppBadge(0, { setAppBadge, clearAppBadge });
    expect(clearAppBadge).toHaveBeenCalledTimes(1);
    expect(() => showAppBadge(2, {})).not.toThrow();
    const refusing = vi.fn(() => Promise.reject(new Error('not allowed')));
    showAppBadge(1, { setAppBadge: refusing });
    await Promise.resolve();
    expect(refusing).toHaveBeenCalledWith(1);
    const throwing = vi.fn(() => {
      throw new Error('no');
    });
    expect(() => showAppBadge(1, { setAppBadge: throwing })).not.toThrow();
  });
});
