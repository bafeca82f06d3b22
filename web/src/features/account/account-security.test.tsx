// The settings page's sessions list and two-factor section, on the generated endpoints.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import { SessionList, TwoFactorSection } from './account-security';

const here = {
  id: 's1',
  userAgent: 'Firefox',
  device: 'Firefox on Linux',
  ip: '203.0.113.5',
  city: 'Leeds',
  country: 'United Kingdom',
  createdAt: '2026-01-01T10:00:00Z',
  lastSeenAt: '2026-01-02T10:00:00Z',
  current: true,
};
const phone = { ...here, id: 's2', device: 'Safari on iOS', ip: null, city: 'Unknown', country: 'Unknown', current: false };

describe('the sessions list', () => {
  it('lists the sessions and signs another one out (DELETE /auth/sessions/{id}), without asking for the list again', async () => {
    mockApi.on('GET', '/auth/sessions', { body: { sessions: [phone, here] } });
    mockApi.on('DELETE', '/auth/sessions/s2', { body: { message: 'Signed out' } });
    const user = userEvent.setup();
    renderWithProviders(<SessionList />, { preloadedState: { auth: signedInAuth() } });
    const list = await screen.findByRole('list', { name: 'Signed-in sessions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('This device')).toBeInTheDocument();
    expect(within(list).getByText(/Unknown place/)).toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: /^Sign out Safari on iOS/ }));

    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(currentToasts().map((t) => t.message)).toContain('Signed out of Safari on iOS.');
    expect(mockApi.calls('DELETE', '/auth/sessions/s2')).toHaveLength(1);
    expect(mockApi.calls('GET', '/auth/sessions')).toHaveLength(1);
  });

  it('reads nothing while the page is opened at another section', () => {
    renderWithProviders(<SessionList />, { preloadedState: { auth: signedInAuth() }, route: '/user-setting#your-data' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your sessions...');
    expect(mockApi.calls('GET', '/auth/sessions')).toHaveLength(0);
  });

  it("says 'Could not load your sessions' when the server gives no message, and tries again", async () => {
    mockApi.on('GET', '/auth/sessions', { status: 500 }, { once: true });
    const user = userEvent.setup();
    renderWithProviders(<SessionList />, { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your sessions');
    mockApi.on('GET', '/auth/sessions', { body: { sessions: [here] } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Signed-in sessions' })).toBeInTheDocument();
  });

  it("shows the server's message when a sign-out is refused", async () => {
    mockApi.on('GET', '/auth/sessions', { body: { sessions: [phone, here] } });
    mockApi.on('DELETE', '/auth/sessions/s2', { status: 404, body: { message: 'No such session', code: 'not_found' } });
    const user = userEvent.setup();
    renderWithProviders(<SessionList />, { preloadedState: { auth: signedInAuth() } });
    await user.click(await screen.findByRole('button', { name: /^Sign out Safari on iOS/ }));
    await waitFor(() => expect(currentToasts().map((t) => t.message)).toContain('No such session'));
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });
});

describe('two-factor sign-in', () => {
  it('turns it on with a code, shows the recovery codes once, then reads the state again', async () => {
    let enabled = false;
    mockApi.on('GET', '/auth/2fa', () => ({ body: { enabled, recoveryCodesLeft: enabled ? 10 : 0 } }));
    mockApi.on('POST', '/auth/2fa/setup', { body: { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Pressroom:ada?secret=JBSWY3DPEHPK3PXP' } });
    mockApi.on('POST', '/auth/2fa/enable', () => {
      enabled = true;
      return { body: { message: 'Two-factor sign-in is on', recoveryCodes: ['aaaa-bbbb', 'cccc-dddd'] } };
    });
    const user = userEvent.setup();
    renderWithProviders(<TwoFactorSection />, { preloadedState: { auth: signedInAuth() } });

    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(mockApi.calls('POST', '/auth/2fa/setup')[0].body).toEqual({});
    await user.type(screen.getByLabelText('6-digit code'), ' 123456 ');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByTestId('recovery-codes')).toHaveTextContent('aaaa-bbbb');
    expect(mockApi.calls('POST', '/auth/2fa/enable')[0].body).toEqual({ code: '123456' });
    await user.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(await screen.findByText(/10 recovery codes left/)).toBeInTheDocument();
    expect(mockApi.calls('GET', '/auth/2fa')).toHaveLength(2);
  });
});
