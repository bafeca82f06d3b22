import { act, renderHook } from '@testing-library/react';
import { currentToasts } from '@/lib/toast';
import { useConnectivityToasts } from './use-connectivity-toasts';

describe('connectivity toasts', () => {
  it("says 'Offline. Check your connection.' and 'Back online.'", () => {
    renderHook(() => useConnectivityToasts());
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(currentToasts().map((t) => t.message)).toEqual(['Offline. Check your connection.']);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(currentToasts().map((t) => t.message)).toEqual(['Offline. Check your connection.', 'Back online.']);
  });
});
