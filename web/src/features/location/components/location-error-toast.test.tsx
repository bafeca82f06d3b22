import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { initialLocationState } from '../location-slice';
import { LocationErrorToast } from './location-error-toast';

vi.mock('@/lib/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/browser')>()),
  reloadPage: vi.fn(),
}));
const browser = await import('@/lib/browser');

describe('LocationErrorToast', () => {
  it('shows the geolocation error and reloads the page when dismissed', () => {
    const { store } = renderWithProviders(<LocationErrorToast />, {
      preloadedState: { location: { ...initialLocationState, geoError: 'User denied Geolocation' } },
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Location error: User denied Geolocation');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(browser.reloadPage).toHaveBeenCalledTimes(1);
    expect(store.getState().location.geoError).toBeNull();
  });
});
