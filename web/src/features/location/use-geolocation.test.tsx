// The browser's position: asked once per browser session, asked again after the location error
// toast's reload, and shared live once the socket is connected.
import { act, fireEvent, screen } from '@testing-library/react';
import { socketConnectRequested } from '@/features/socket';
import { mockApi } from '@/test/mock-api';
import { lastFakeSocket } from '@/test/fake-socket';
import { renderWithProviders, signedInAuth, testUser } from '@/test/render';
import { LocationErrorToast } from './components/location-error-toast';
import { useGeolocation } from './use-geolocation';

vi.mock('@/lib/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/browser')>()),
  reloadPage: vi.fn(),
}));
const browser = await import('@/lib/browser');

function Harness() {
  useGeolocation();
  return <LocationErrorToast />;
}

type Success = (position: GeolocationPosition) => void;
type Failure = (error: GeolocationPositionError) => void;

function installGeolocation(answer: (ok: Success, fail: Failure) => void) {
  const getCurrentPosition = vi.fn(answer);
  Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
  return getCurrentPosition;
}

const position = { coords: { latitude: 12.5, longitude: 77.25 } } as GeolocationPosition;

describe('useGeolocation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks the browser again after the error toast reloads the page', () => {
    const ask = installGeolocation((_ok, fail) => fail({ code: 1, message: 'User denied Geolocation' } as GeolocationPositionError));
    const first = renderWithProviders(<Harness />, { preloadedState: { auth: signedInAuth() } });
    expect(ask).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Location error: User denied Geolocation');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(browser.reloadPage).toHaveBeenCalledTimes(1);
    first.unmount();

    // The reload: a new app in the same browser session (sessionStorage survives).
    renderWithProviders(<Harness />, { preloadedState: { auth: signedInAuth() } });
    expect(ask).toHaveBeenCalledTimes(2);
  });

  it('does not ask twice in one browser session otherwise', () => {
    const ask = installGeolocation((ok) => ok(position));
    mockApi.on('POST', '/user/save-location', { body: { location: {} } });
    const first = renderWithProviders(<Harness />, { preloadedState: { auth: signedInAuth() } });
    first.unmount();
    renderWithProviders(<Harness />, { preloadedState: { auth: signedInAuth() } });
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('sends the position when the socket connects if it was not connected when the position came', async () => {
    vi.useFakeTimers();
    installGeolocation((ok) => ok(position));
    mockApi.on('POST', '/user/save-location', { body: { location: {} } });
    const { store } = renderWithProviders(<Harness />, { preloadedState: { auth: signedInAuth() } });
    store.dispatch(socketConnectRequested({ token: 'token-1' }));
    const socket = lastFakeSocket();
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(socket.emitted.filter(([event]) => event === 'userLocationUpdate')).toHaveLength(0);

    act(() => socket.serverConnect());
    const sent = socket.emitted.filter(([event]) => event === 'userLocationUpdate');
    expect(sent).toHaveLength(1);
    expect(sent[0][1]).toMatchObject({ userId: testUser._id, lat: 12.5, lon: 77.25 });
    // Once only, also across later reconnects.
    act(() => socket.serverConnect());
    expect(socket.emitted.filter(([event]) => event === 'userLocationUpdate')).toHaveLength(1);
  });
});
