// The browser's position is asked only after a person chooses to share it (settings or the
// follower map's prompt); a refusal is remembered and never asked about again.
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { socketConnectRequested } from '@/features/socket';
import { mockApi } from '@/test/mock-api';
import { lastFakeSocket } from '@/test/fake-socket';
import { renderWithProviders, signedInAuth, testUser } from '@/test/render';
import { LocationErrorToast } from './components/location-error-toast';
import { PreciseLocationControl } from './components/precise-location-control';
import { PRECISE_LOCATION_KEY, initialLocationState } from './location-slice';
import { useGeolocation } from './use-geolocation';

vi.mock('@/lib/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/browser')>()),
  reloadPage: vi.fn(),
}));
const browser = await import('@/lib/browser');

function Harness({ variant = 'settings' }: { variant?: 'settings' | 'prompt' }) {
  useGeolocation();
  return (
    <>
      <PreciseLocationControl variant={variant} />
      <LocationErrorToast />
    </>
  );
}

type Success = (position: GeolocationPosition) => void;
type Failure = (error: GeolocationPositionError) => void;

function installGeolocation(answer: (ok: Success, fail: Failure) => void, permission: PermissionState = 'prompt') {
  const getCurrentPosition = vi.fn((ok: Success, fail: Failure, _options?: PositionOptions) => answer(ok, fail));
  Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
  Object.defineProperty(navigator, 'permissions', { value: { query: vi.fn(() => Promise.resolve({ state: permission })) }, configurable: true });
  return getCurrentPosition;
}

const position = { coords: { latitude: 12.5, longitude: 77.25 } } as GeolocationPosition;
const denied = { code: 1, message: 'User denied Geolocation' } as GeolocationPositionError;
const state = (preciseChoice: 'shared' | 'declined' | null) => ({ auth: signedInAuth(), location: { ...initialLocationState, preciseChoice } });

describe('precise location, asked in context', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks nothing on page load for a person who has not chosen', async () => {
    const ask = installGeolocation((ok) => ok(position));
    renderWithProviders(<Harness />, { preloadedState: state(null) });
    await act(async () => {});
    expect(ask).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks once the person chooses Share precise location: high accuracy, 30 s time-out; the choice is kept', async () => {
    const ask = installGeolocation((ok) => ok(position));
    mockApi.on('POST', '/user/save-location', { body: { location: {} } });
    const user = userEvent.setup();
    const { store } = renderWithProviders(<Harness />, { preloadedState: state(null) });
    await user.click(screen.getByRole('button', { name: 'Share precise location' }));
    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask.mock.calls[0][2]).toMatchObject({ enableHighAccuracy: true, timeout: 30_000 });
    expect(localStorage.getItem(PRECISE_LOCATION_KEY)).toBe('shared');
    expect(store.getState().location.preciseChoice).toBe('shared');
    await vi.waitFor(() => expect(mockApi.calls('POST', '/user/save-location')).toHaveLength(1));
    expect(mockApi.calls('POST', '/user/save-location')[0].body).toMatchObject({ coordinates: { lat: 12.5, lon: 77.25 } });
    expect(screen.getByRole('button', { name: 'Stop sharing precise location' })).toBeInTheDocument();
  });

  it('a refusal shows the toast once, is remembered, and the next page load asks nothing', async () => {
    const ask = installGeolocation((_ok, fail) => fail(denied));
    const user = userEvent.setup();
    const first = renderWithProviders(<Harness />, { preloadedState: state(null) });
    await user.click(screen.getByRole('button', { name: 'Share precise location' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Location error: User denied Geolocation');
    expect(localStorage.getItem(PRECISE_LOCATION_KEY)).toBe('declined');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(browser.reloadPage).toHaveBeenCalledTimes(1);
    first.unmount();

    // The reload: a new app in the same browser, which reads the remembered refusal.
    const { store } = renderWithProviders(<Harness />, { preloadedState: { auth: signedInAuth() } });
    await act(async () => {});
    expect(store.getState().location.preciseChoice).toBe('declined');
    expect(ask).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("the follower map's prompt shows until the person chooses; Not now is remembered", async () => {
    const ask = installGeolocation((ok) => ok(position));
    const user = userEvent.setup();
    const first = renderWithProviders(<Harness variant="prompt" />, { preloadedState: state(null) });
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('region', { name: 'Share your precise location' })).not.toBeInTheDocument();
    first.unmount();
    renderWithProviders(<Harness variant="prompt" />, { preloadedState: { auth: signedInAuth() } });
    expect(screen.queryByRole('region', { name: 'Share your precise location' })).not.toBeInTheDocument();
    expect(ask).not.toHaveBeenCalled();
  });

  it('refreshes the position on load only for someone who shared and whose browser already grants it', async () => {
    const ask = installGeolocation((ok) => ok(position), 'prompt');
    mockApi.on('POST', '/user/save-location', { body: { location: {} } });
    const first = renderWithProviders(<Harness />, { preloadedState: state('shared') });
    await act(async () => {});
    expect(ask).not.toHaveBeenCalled();
    first.unmount();
    const askAgain = installGeolocation((ok) => ok(position), 'granted');
    renderWithProviders(<Harness />, { preloadedState: state('shared') });
    await vi.waitFor(() => expect(askAgain).toHaveBeenCalledTimes(1));
  });

  it('sends the position when the socket connects if it was not connected when the position came', async () => {
    vi.useFakeTimers();
    installGeolocation((ok) => ok(position), 'granted');
    mockApi.on('POST', '/user/save-location', { body: { location: {} } });
    const { store } = renderWithProviders(<Harness />, { preloadedState: state('shared') });
    store.dispatch(socketConnectRequested({ token: 'token-1' }));
    const socket = lastFakeSocket();
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(socket.emitted.filter(([event]) => event === 'userLocationUpdate')).toHaveLength(0);

    act(() => socket.serverConnect());
    const sent = socket.emitted.filter(([event]) => event === 'userLocationUpdate');
    expect(sent).toHaveLength(1);
    expect(sent[0][1]).toMatchObject({ userId: testUser._id, lat: 12.5, lon: 77.25 });
    act(() => socket.serverConnect());
    expect(socket.emitted.filter(([event]) => event === 'userLocationUpdate')).toHaveLength(1);
  });
});
