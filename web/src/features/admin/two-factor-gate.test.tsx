import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { mockAdminLoad, renderWithProviders, signedInAuth, testAdmin } from '@/test/render';
import { AdminPage } from './pages/admin-page';

const REQUIRED = {
  status: 403,
  body: { message: 'Administrators on this site must use two-factor sign-in.', code: 'two_factor_required' },
};

describe('the two-factor gate of the admin dashboard', () => {
  it('shows the setup step instead of the dashboard to an administrator without two-factor sign-in', async () => {
    mockApi.on('GET', '/admin/settings', REQUIRED);
    mockApi.on('GET', '/auth/2fa', { body: { enabled: false, recoveryCodesLeft: 0 } });
    renderWithProviders(<AdminPage />, { route: '/admin', preloadedState: { auth: signedInAuth({ user: testAdmin, role: 'admin' }) } });
    expect(await screen.findByRole('heading', { name: 'Set up two-factor sign-in first' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Dashboard sections' })).not.toBeInTheDocument();
    // No administrator section asked the server for anything.
    expect(mockApi.calls('GET', '/admin/overview')).toHaveLength(0);
  });

  it('opens the dashboard once two-factor sign-in is on', async () => {
    mockAdminLoad();
    let factorOn = false;
    mockApi.on('GET', '/admin/settings', () => (factorOn ? { body: { settings: { requireAdminTwoFactor: true } } } : REQUIRED));
    mockApi.on('GET', '/auth/2fa', { body: { enabled: true, recoveryCodesLeft: 10 } });
    const user = userEvent.setup();
    renderWithProviders(<AdminPage />, { route: '/admin', preloadedState: { auth: signedInAuth({ user: testAdmin, role: 'admin' }) } });
    const open = await screen.findByRole('button', { name: 'Open the dashboard' });
    factorOn = true;
    await user.click(open);
    expect(await screen.findByRole('navigation', { name: 'Dashboard sections' })).toBeInTheDocument();
    expect(screen.queryByTestId('admin-two-factor-gate')).not.toBeInTheDocument();
  });

  it('the settings section turns the requirement on and shows the refusal when one has no second factor', async () => {
    mockAdminLoad();
    const user = userEvent.setup();
    renderWithProviders(<AdminPage />, { route: '/admin?section=settings', preloadedState: { auth: signedInAuth({ user: testAdmin, role: 'admin' }) } });
    const box = await screen.findByRole('checkbox', { name: 'Require two-factor sign-in for administrators' });
    expect(box).not.toBeChecked();
    mockApi.on(
      'PATCH',
      '/admin/settings',
      { status: 409, body: { message: 'Turn on two-factor sign-in (an authenticator app) or add a passkey to your own account before requiring it of administrators.', code: 'conflict' } },
      { once: true },
    );
    await user.click(box);
    expect(await screen.findByRole('alert')).toHaveTextContent('or add a passkey to your own account');
    expect(box).not.toBeChecked();
    mockApi.on('PATCH', '/admin/settings', { body: { message: 'Administrators must now use two-factor sign-in', settings: { requireAdminTwoFactor: true } } });
    await user.click(box);
    expect(await screen.findByText('Administrators must now use two-factor sign-in')).toBeInTheDocument();
    expect(box).toBeChecked();
    expect(mockApi.calls('PATCH', '/admin/settings').at(-1)?.body).toEqual({ requireAdminTwoFactor: true });
  });
});
