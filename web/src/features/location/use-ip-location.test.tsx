import { act } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { IP_TRACK_RETRY_MS, useIpLocation } from './use-ip-location';

function Harness() {
  useIpLocation();
  return null;
}

const location = { latitude: 1, longitude: 2, city: 'Pune', country: 'India', state: 'MH', pincode: '411001' };

describe('useIpLocation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tries a failed IP track again after 15 s, and again when the browser comes online', async () => {
    vi.useFakeTimers();
    mockApi.on('GET', '/user/ip-location', { status: 503 });
    const { store } = renderWithProviders(<Harness />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(mockApi.calls('GET', '/user/ip-location')).toHaveLength(1);
    expect(IP_TRACK_RETRY_MS[0]).toBe(15_000);
    await act(() => vi.advanceTimersByTimeAsync(14_999));
    expect(mockApi.calls('GET', '/user/ip-location')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(mockApi.calls('GET', '/user/ip-location')).toHaveLength(2);

    mockApi.on('GET', '/user/ip-location', { body: { location } });
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(mockApi.calls('GET', '/user/ip-location')).toHaveLength(3);
    expect(store.getState().location.ipLocation?.city).toBe('Pune');
    // Cached: no more calls.
    await act(() => vi.advanceTimersByTimeAsync(300_000));
    window.dispatchEvent(new Event('online'));
    expect(mockApi.calls('GET', '/user/ip-location')).toHaveLength(3);
  });
});
