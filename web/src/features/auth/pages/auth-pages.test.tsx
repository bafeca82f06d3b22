import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { guestAuth, renderWithProviders, signedInAuth, testUser } from '@/test/render';
import LoginPage from './login-page';
import ResetPasswordPage from './reset-password-page';
import SignupPage from './signup-page';
import VerifyPage from './verify-page';

const session = { _id: 'u1', fullName: 'Ada Lovelace', email: 'ada@example.com', role: 'user', token: 'tok', isAccountVerified: false };

function noGoogle() {
  mockApi.on('GET', '/config/public', { body: { googleClientId: null } });
}

function gate() {
  let release: () => void = () => {};
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release: () => release() };
}

describe('login page', () => {
  it('submits with the keyboard, disables the button while busy and shows the server error', async () => {
    noGoogle();
    const g = gate();
    mockApi.on('POST', '/auth/login', async () => {
      await g.promise;
      return { status: 401, body: { message: 'Invalid email or password' } };
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderWithProviders(<LoginPage />, { preloadedState: { auth: guestAuth() }, route: '/login' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    expect(await screen.findByRole('button', { name: 'Logging in...' })).toBeDisabled();
    g.release();
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(mockApi.calls('POST', '/auth/login')[0].body).toEqual({ email: 'ada@example.com', password: 'wrong' });
  });

  it("shows 'Login failed' when the server gives no message", async () => {
    noGoogle();
    mockApi.on('POST', '/auth/login', { status: 500 });
    renderWithProviders(<LoginPage />, { preloadedState: { auth: guestAuth() }, route: '/login' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'a@b.c');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed');
  });

  it('sends a logged-in visitor back to where they came from, or /', () => {
    noGoogle();
    renderWithProviders(<LoginPage />, { preloadedState: { auth: signedInAuth() }, route: '/login?redirect=/bookmark', path: '/login' });
    expect(screen.getByTestId('location')).toHaveTextContent('/bookmark');
  });

  it('sends a logged-in visitor without a origin to /', () => {
    noGoogle();
    renderWithProviders(<LoginPage />, { preloadedState: { auth: signedInAuth() }, route: '/login' });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('never redirects off-site', () => {
    noGoogle();
    renderWithProviders(<LoginPage />, { preloadedState: { auth: signedInAuth() }, route: '/login?redirect=//evil.example' });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('renders the Google button when a client id is configured', async () => {
    mockApi.on('GET', '/config/public', { body: { googleClientId: 'cid' } });
    const initialize = vi.fn<(options: { client_id: string; callback: (response: { credential?: string }) => void }) => void>();
    const renderButton = vi.fn();
    window.google = { accounts: { id: { initialize, renderButton } } };
    try {
      renderWithProviders(<LoginPage />, { preloadedState: { auth: guestAuth() }, route: '/login' });
      await waitFor(() => expect(renderButton).toHaveBeenCalled());
      expect(initialize).toHaveBeenCalledWith(expect.objectContaining({ client_id: 'cid' }));
      mockApi.on('POST', '/auth/google-login', {
        body: { user: { _id: 'g', name: 'G', email: 'g@x', role: 'user' }, token: 'gt', isAccountVerified: true },
      });
      // Someone who has chosen categories goes back to where they came from.
      mockApi.on('GET', '/category/user-selected', { body: { categories: [{ _id: 'c1', name: 'Tech', slug: 'tech' }] } });
      const { callback } = initialize.mock.calls[0][0];
      callback({ credential: 'google-credential' });
      await waitFor(() => expect(mockApi.calls('GET', '/category/user-selected')).toHaveLength(1));
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
      expect(mockApi.calls('POST', '/auth/google-login')[0].body).toEqual({ token: 'google-credential', sendEmail: true });
    } finally {
      delete window.google;
    }
  });

  it('a Google sign-up with no category chosen yet goes to /select-category, as an email sign-up does', async () => {
    mockApi.on('GET', '/config/public', { body: { googleClientId: 'cid' } });
    const initialize = vi.fn<(options: { client_id: string; callback: (response: { credential?: string }) => void }) => void>();
    window.google = { accounts: { id: { initialize, renderButton: vi.fn() } } };
    try {
      renderWithProviders(<SignupPage />, { preloadedState: { auth: guestAuth() }, route: '/signup', path: '/signup' });
      await waitFor(() => expect(initialize).toHaveBeenCalled());
      mockApi.on('POST', '/auth/google-login', {
        body: { user: { _id: 'g', name: 'G', email: 'g@x', role: 'user' }, token: 'gt', isAccountVerified: true },
      });
      mockApi.on('GET', '/category/user-selected', { body: { categories: [] } });
      initialize.mock.calls[0][0].callback({ credential: 'google-credential' });
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/select-category'));
    } finally {
      delete window.google;
    }
  });
});

describe('signup page', () => {
  it('creates the account and continues to /verify', async () => {
    noGoogle();
    mockApi.on('POST', '/auth/signup', { body: session });
    renderWithProviders(<SignupPage />, { preloadedState: { auth: guestAuth() }, route: '/signup', path: '/signup' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/verify'));
    expect(mockApi.calls('POST', '/auth/signup')[0].body).toEqual({
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'correct horse',
      sendEmail: true,
    });
  });

  it("shows 'Signup failed' when the server gives no message", async () => {
    noGoogle();
    mockApi.on('POST', '/auth/signup', { status: 500 });
    renderWithProviders(<SignupPage />, { preloadedState: { auth: guestAuth() }, route: '/signup' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Full name'), 'A');
    await user.type(screen.getByLabelText('Email'), 'a@b.c');
    await user.type(screen.getByLabelText('Password'), 'x{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Signup failed');
  });
});

describe('verify page', () => {
  it('sends the code, then verifies the 6-digit code', async () => {
    mockApi.on('POST', '/auth/send-verify-otp', { body: { message: 'Verification OTP sent to your email' } });
    mockApi.on('POST', '/auth/verify-email', { body: { message: 'Email verified successfully' } });
    const { store } = renderWithProviders(<VerifyPage />, { preloadedState: { auth: signedInAuth({ isAccountVerified: false }) }, route: '/verify' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send Code' }));
    expect(await screen.findByText('Verification OTP sent to your email')).toBeInTheDocument();
    expect(mockApi.calls('POST', '/auth/send-verify-otp')[0].body).toEqual({ userId: testUser._id });
    const verify = screen.getByRole('button', { name: 'Verify Email' });
    await user.type(screen.getByLabelText('Verification code'), '12a3');
    expect(screen.getByLabelText('Verification code')).toHaveValue('123');
    expect(verify).toBeDisabled();
    await user.type(screen.getByLabelText('Verification code'), '4567');
    expect(screen.getByLabelText('Verification code')).toHaveValue('123456');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Email verified successfully')).toBeInTheDocument();
    expect(store.getState().auth.isAccountVerified).toBe(true);
    expect(mockApi.calls('POST', '/auth/verify-email')[0].body).toEqual({ userId: testUser._id, otp: '123456' });
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/');
  });

  it("shows the server's error for a wrong code", async () => {
    mockApi.on('POST', '/auth/verify-email', { status: 400, body: { message: 'Invalid OTP' } });
    renderWithProviders(<VerifyPage />, { preloadedState: { auth: signedInAuth({ isAccountVerified: false }) }, route: '/verify' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Verification code'), '000000{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid OTP');
  });
});

describe('reset password page', () => {
  it('goes email → code → new password → done', async () => {
    mockApi.on('POST', '/auth/send-reset-otp', { body: { message: 'OTP sent to your email' } });
    mockApi.on('POST', '/auth/verify-reset-otp', { body: { message: 'OTP verified' } });
    mockApi.on('POST', '/auth/reset-password', { body: { message: 'Password has been reset successfully' } });
    renderWithProviders(<ResetPasswordPage />, { preloadedState: { auth: guestAuth() }, route: '/reset-password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com{Enter}');
    expect(await screen.findByText('OTP sent to your email')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Verification code'), '654321{Enter}');
    expect(await screen.findByText('OTP verified')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), 'new-secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'different{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(mockApi.calls('POST', '/auth/reset-password')).toHaveLength(0);
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'new-secret{Enter}');
    expect(await screen.findByText('Password has been reset successfully')).toBeInTheDocument();
    expect(mockApi.calls('POST', '/auth/reset-password')[0].body).toEqual({ email: 'ada@example.com', otp: '654321', newPassword: 'new-secret' });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it("shows 'Failed to send password reset OTP' when the server gives no message", async () => {
    mockApi.on('POST', '/auth/send-reset-otp', { status: 500 });
    renderWithProviders(<ResetPasswordPage />, { preloadedState: { auth: guestAuth() }, route: '/reset-password' });
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.c{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to send password reset OTP');
  });
});
