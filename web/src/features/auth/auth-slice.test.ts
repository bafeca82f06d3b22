import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth, testUser } from '@/test/render';
import { socketEvents } from '@/features/socket';
import {
  authReducer,
  checkAuth,
  googleLogin,
  initialAuthState,
  login,
  loginWithPasskey,
  logout,
  resetPassword,
  sendResetOtp,
  sendVerifyOtp,
  signup,
  verifyEmail,
  verifyResetOtp,
  type AuthState,
  changePassword,
  logoutEverywhere,
  deleteAccount,
} from './auth-slice';

const session = { _id: 'u1', fullName: 'Ada Lovelace', email: 'ada@example.com', role: 'user', token: 'tok', isAccountVerified: false };

function signedIn(): AuthState {
  return {
    ...initialAuthState(),
    user: { _id: 'u1', name: 'Ada', email: 'ada@example.com', role: 'user' },
    role: 'user',
    token: 'tok',
    isAuthenticated: true,
  };
}

describe('auth state', () => {
  it('starts signed out with every field of the spec', () => {
    expect(initialAuthState()).toEqual({
      user: null,
      role: null,
      isAuthenticated: false,
      loading: false,
      error: null,
      token: null,
      isAccountVerified: false,
      otpStatus: null,
      sessionExpired: false,
      isCheckingAuth: false,
      authInitialized: false,
      sessionCheckFailed: false,
      changingPassword: false,
      twoFactorChallenge: null,
    });
  });

  it('reads the stored token under jwt', () => {
    localStorage.setItem('jwt', 'stored');
    expect(initialAuthState().token).toBe('stored');
  });

  it.each([
    ['signup', signup.pending.type],
    ['login', login.pending.type],
    ['googleLogin', googleLogin.pending.type],
    ['checkAuth', checkAuth.pending.type],
    ['logout', logout.pending.type],
    ['sendVerifyOtp', sendVerifyOtp.pending.type],
    ['verifyEmail', verifyEmail.pending.type],
    ['sendResetOtp', sendResetOtp.pending.type],
    ['verifyResetOtp', verifyResetOtp.pending.type],
    ['resetPassword', resetPassword.pending.type],
  ])('a %s request sets loading and clears the error', (_, type) => {
    const state = authReducer({ ...initialAuthState(), error: 'old' }, { type });
    expect(state.loading).toBe(true);
    expect(state.error).toBeNull();
  });

  it('signup success marks the user authenticated, stores the token and clears sessionExpired', async () => {
    mockApi.on('POST', '/auth/signup', { body: session });
    const store = setupStore({ auth: { ...initialAuthState(), sessionExpired: true } });
    await store.dispatch(signup({ fullName: 'Ada Lovelace', email: 'ada@example.com', password: 'pw', sendEmail: true }));
    const auth = store.getState().auth;
    expect(auth).toMatchObject({
      isAuthenticated: true,
      loading: false,
      token: 'tok',
      role: 'user',
      sessionExpired: false,
      isAccountVerified: false,
      user: { _id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'user' },
    });
    expect(localStorage.getItem('jwt')).toBe('tok');
    expect(mockApi.calls('POST', '/auth/signup')[0].body).toEqual({
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'pw',
      sendEmail: true,
    });
  });

  it("signup failure shows the server's message, else 'Signup failed'", async () => {
    mockApi.on('POST', '/auth/signup', { status: 500 });
    mockApi.on('POST', '/auth/signup', { status: 409, body: { message: 'Email already registered' } }, { once: true });
    const store = setupStore();
    await store.dispatch(signup({ fullName: 'A', email: 'a@b.c', password: 'p', sendEmail: true }));
    expect(store.getState().auth.error).toBe('Email already registered');
    await store.dispatch(signup({ fullName: 'A', email: 'a@b.c', password: 'p', sendEmail: true }));
    expect(store.getState().auth.error).toBe('Signup failed');
    expect(store.getState().auth.loading).toBe(false);
  });

  it('login success marks the user authenticated and stores the token', async () => {
    mockApi.on('POST', '/auth/login', { body: { ...session, role: 'admin', isAccountVerified: true } });
    const store = setupStore({ auth: { ...initialAuthState(), sessionExpired: true } });
    await store.dispatch(login({ email: 'ada@example.com', password: 'pw' }));
    expect(store.getState().auth).toMatchObject({ isAuthenticated: true, role: 'admin', isAccountVerified: true, sessionExpired: false, token: 'tok' });
    expect(localStorage.getItem('jwt')).toBe('tok');
  });

  it("login failure clears user, role and token; error falls back to 'Login failed'", async () => {
    mockApi.on('POST', '/auth/login', { status: 500 });
    const store = setupStore({ auth: signedIn() });
    await store.dispatch(login({ email: 'x', password: 'y' }));
    expect(store.getState().auth).toMatchObject({ user: null, role: null, token: null, error: 'Login failed', loading: false });
  });

  it("a passkey sign-in sends the browser's answer and signs in as a password sign-in does", async () => {
    mockApi.on('POST', '/auth/passkeys/login/verify', { body: { ...session, isAccountVerified: true } });
    const store = setupStore({ auth: { ...initialAuthState(), sessionExpired: true, twoFactorChallenge: 'old' } });
    const credential = { id: 'c1', rawId: 'c1', type: 'public-key' as const, response: { clientDataJSON: 'c', authenticatorData: 'd', signature: 's' }, clientExtensionResults: {} };
    await store.dispatch(loginWithPasskey({ challengeId: 'ch1', credential }));
    expect(store.getState().auth).toMatchObject({ isAuthenticated: true, user: { _id: 'u1', name: 'Ada Lovelace' }, token: 'tok', sessionExpired: false, twoFactorChallenge: null, loading: false });
    expect(localStorage.getItem('jwt')).toBe('tok');
    expect(mockApi.calls('POST', '/auth/passkeys/login/verify')[0].body).toEqual({ challengeId: 'ch1', credential });
  });

  it("a refused passkey sign-in says the server's message, else 'Signing in with a passkey failed'", async () => {
    const credential = { id: 'c1', rawId: 'c1', type: 'public-key' as const, response: { clientDataJSON: 'c', authenticatorData: 'd', signature: 's' }, clientExtensionResults: {} };
    mockApi.on('POST', '/auth/passkeys/login/verify', { status: 400, body: { message: 'This passkey is not registered here.' } }, { once: true });
    const store = setupStore();
    await store.dispatch(loginWithPasskey({ challengeId: 'ch1', credential }));
    expect(store.getState().auth).toMatchObject({ isAuthenticated: false, error: 'This passkey is not registered here.', loading: false });
    mockApi.on('POST', '/auth/passkeys/login/verify', { status: 500 });
    await store.dispatch(loginWithPasskey({ challengeId: 'ch2', credential }));
    expect(store.getState().auth.error).toBe('Signing in with a passkey failed');
    expect(localStorage.getItem('jwt')).toBeNull();
  });

  it('Google login success uses the nested user', async () => {
    mockApi.on('POST', '/auth/google-login', {
      body: { user: { _id: 'g1', name: 'Gee', email: 'g@example.com', role: 'user' }, token: 'gtok', isAccountVerified: true },
    });
    const store = setupStore();
    await store.dispatch(googleLogin({ token: 'credential', sendEmail: true }));
    expect(store.getState().auth).toMatchObject({ isAuthenticated: true, token: 'gtok', user: { _id: 'g1', name: 'Gee' } });
    expect(mockApi.calls('POST', '/auth/google-login')[0].body).toEqual({ token: 'credential', sendEmail: true });
  });

  it("Google login failure falls back to 'Google login failed'", async () => {
    mockApi.on('POST', '/auth/google-login', { status: 502 });
    const store = setupStore();
    await store.dispatch(googleLogin({ token: 'c', sendEmail: true }));
    expect(store.getState().auth.error).toBe('Google login failed');
  });

  it('auth check success signs in and marks authInitialized', async () => {
    localStorage.setItem('jwt', 'tok');
    mockApi.on('GET', '/auth/check', { body: { _id: 'u1', name: 'Ada', email: 'ada@example.com', role: 'user', token: 'tok2', isAccountVerified: true } });
    const store = setupStore({ auth: { ...initialAuthState(), sessionExpired: true } });
    const pending = store.dispatch(checkAuth());
    expect(store.getState().auth.isCheckingAuth).toBe(true);
    await pending;
    expect(store.getState().auth).toMatchObject({
      isAuthenticated: true,
      isCheckingAuth: false,
      authInitialized: true,
      sessionExpired: false,
      token: 'tok2',
      isAccountVerified: true,
    });
    expect(mockApi.calls('GET', '/auth/check')[0].headers.get('Authorization')).toBe('Bearer tok');
  });

  it('auth check failure clears the user and sets sessionExpired', async () => {
    localStorage.setItem('jwt', 'expired');
    mockApi.on('GET', '/auth/check', { status: 401, body: { message: 'Token expired' } });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const store = setupStore({ auth: signedIn() });
    await store.dispatch(checkAuth());
    expect(store.getState().auth).toMatchObject({
      user: null,
      isAuthenticated: false,
      sessionExpired: true,
      authInitialized: true,
      isCheckingAuth: false,
    });
  });

  it.each([
    ['a 5xx', { status: 503, body: { message: 'Service unavailable' } }],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('auth check failure by %s keeps the signed-in user and the token', async (_, reply) => {
    localStorage.setItem('jwt', 'tok');
    mockApi.on('GET', '/auth/check', reply);
    const store = setupStore({ auth: signedIn() });
    await store.dispatch(checkAuth());
    expect(store.getState().auth).toMatchObject({
      user: { _id: 'u1' },
      isAuthenticated: true,
      token: 'tok',
      sessionExpired: false,
      authInitialized: true,
      isCheckingAuth: false,
    });
    expect(localStorage.getItem('jwt')).toBe('tok');
  });

  it('auth check for a guest (no stored token) does not set sessionExpired', async () => {
    const store = setupStore();
    await store.dispatch(checkAuth());
    expect(store.getState().auth).toMatchObject({ sessionExpired: false, authInitialized: true, user: null, error: null });
    expect(mockApi.calls('GET', '/auth/check')).toHaveLength(0);
  });

  it("auth check falls back to 'Auth check failed'", async () => {
    localStorage.setItem('jwt', 'tok');
    mockApi.on('GET', '/auth/check', { status: 500 });
    const store = setupStore();
    await store.dispatch(checkAuth());
    expect(store.getState().auth.error).toBe('Auth check failed');
  });

  it('logout success removes the stored token and clears the user', async () => {
    localStorage.setItem('jwt', 'tok');
    mockApi.on('POST', '/auth/logout', { body: { message: 'Logged out' } });
    const store = setupStore({ auth: signedIn() });
    await store.dispatch(logout());
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(store.getState().auth).toMatchObject({ user: null, token: null, isAuthenticated: false, role: null });
  });

  it('logout failure also removes the stored token and clears the user', async () => {
    localStorage.setItem('jwt', 'tok');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockApi.on('POST', '/auth/logout', { status: 500 });
    const store = setupStore({ auth: signedIn() });
    await store.dispatch(logout());
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(store.getState().auth).toMatchObject({ user: null, token: null, isAuthenticated: false });
  });

  it('email verification success sets isAccountVerified', async () => {
    mockApi.on('POST', '/auth/verify-email', { body: { message: 'Email verified successfully' } });
    const store = setupStore({ auth: signedIn() });
    await store.dispatch(verifyEmail({ userId: 'u1', otp: '123456' }));
    expect(store.getState().auth).toMatchObject({ isAccountVerified: true, otpStatus: 'Email verified successfully', loading: false });
    expect(mockApi.calls('POST', '/auth/verify-email')[0].body).toEqual({ userId: 'u1', otp: '123456' });
  });

  it.each([
    ['send verify', sendVerifyOtp, '/auth/send-verify-otp', { userId: 'u1' }],
    ['send reset', sendResetOtp, '/auth/send-reset-otp', { email: 'a@b.c' }],
    ['verify reset', verifyResetOtp, '/auth/verify-reset-otp', { email: 'a@b.c', otp: '123456' }],
    ['reset password', resetPassword, '/auth/reset-password', { email: 'a@b.c', otp: '123456', newPassword: 'n' }],
  ] as const)('the %s step stores the server message as otpStatus', async (_, thunk, path, arg) => {
    mockApi.on('POST', path, { body: { message: `done: ${path}` } });
    const store = setupStore();
    await store.dispatch((thunk as typeof sendResetOtp)(arg as never));
    expect(store.getState().auth.otpStatus).toBe(`done: ${path}`);
    expect(mockApi.calls('POST', path)[0].body).toEqual(arg);
  });

  it.each([
    [sendVerifyOtp, '/auth/send-verify-otp', 'Failed to send verification OTP'],
    [verifyEmail, '/auth/verify-email', 'Failed to verify email'],
    [sendResetOtp, '/auth/send-reset-otp', 'Failed to send password reset OTP'],
    [verifyResetOtp, '/auth/verify-reset-otp', 'Failed to verify OTP'],
    [resetPassword, '/auth/reset-password', 'Failed to reset password'],
  ] as const)('%# falls back to its catalogue text', async (thunk, path, text) => {
    mockApi.on('POST', path, { status: 500 });
    const store = setupStore();
    await store.dispatch((thunk as typeof sendResetOtp)({} as never));
    expect(store.getState().auth.error).toBe(text);
  });
});

describe('password and sessions', () => {
  it('changing the password keeps this session with the new token', async () => {
    localStorage.setItem('jwt', 'old');
    mockApi.on('POST', '/auth/change-password', { body: { message: 'Password changed successfully. Other sessions have been logged out.', token: 'new' } });
    const store = setupStore({ auth: signedInAuth({ token: 'old' }) });
    const done = store.dispatch(changePassword({ currentPassword: 'a', newPassword: 'b' }));
    expect(store.getState().auth.changingPassword).toBe(true);
    await done;
    expect(store.getState().auth).toMatchObject({ token: 'new', isAuthenticated: true, changingPassword: false });
    expect(localStorage.getItem('jwt')).toBe('new');
    expect(mockApi.calls('POST', '/auth/change-password')[0].body).toEqual({ currentPassword: 'a', newPassword: 'b' });
  });

  it("a refused change keeps the session and says why, else 'Failed to change password'", async () => {
    localStorage.setItem('jwt', 'old');
    mockApi.on('POST', '/auth/change-password', { status: 400, body: { message: 'Current password is incorrect', code: 'invalid_credentials' } });
    const store = setupStore({ auth: signedInAuth({ token: 'old' }) });
    const result = await store.dispatch(changePassword({ currentPassword: 'x', newPassword: 'y' }));
    expect(result.payload).toBe('Current password is incorrect');
    expect(store.getState().auth).toMatchObject({ token: 'old', isAuthenticated: true });
    mockApi.on('POST', '/auth/change-password', { status: 500 });
    expect((await store.dispatch(changePassword({ currentPassword: 'x', newPassword: 'y' }))).payload).toBe('Failed to change password');
  });

  it('logging out everywhere ends this session too', async () => {
    localStorage.setItem('jwt', 'old');
    mockApi.on('POST', '/auth/logout-all', { body: { message: 'Logged out of every session' } });
    const store = setupStore({ auth: signedInAuth({ token: 'old' }) });
    await store.dispatch(logoutEverywhere());
    expect(store.getState().auth).toMatchObject({ isAuthenticated: false, user: null, token: null });
    expect(localStorage.getItem('jwt')).toBeNull();
  });

  it('the server closing the socket makes the app check the session: a 401 ends it with the guest banner', async () => {
    localStorage.setItem('jwt', 'revoked');
    mockApi.on('GET', '/auth/check', { status: 401, body: { message: 'Your session has ended. Please log in again.', code: 'token_revoked' } });
    const store = setupStore({ auth: signedInAuth({ token: 'revoked' }) });
    store.dispatch(socketEvents.serverDisconnected());
    await vi.waitFor(() => expect(store.getState().auth.isAuthenticated).toBe(false));
    expect(store.getState().auth.sessionExpired).toBe(true);
  });

  it('deleting the account keeps its answer though the server signs the tab out before it arrives', async () => {
    localStorage.setItem('jwt', 'tok');
    mockApi.on('POST', '/user/delete-account', { body: { message: 'Scheduled', deletionScheduledAt: '2026-12-12T10:00:00Z' }, delayMs: 40 });
    mockApi.on('GET', '/auth/check', { status: 401, body: { message: 'Your session has ended. Please log in again.', code: 'token_revoked' } });
    mockApi.on('POST', '/auth/logout', { status: 401, body: { message: 'Your session has ended. Please log in again.', code: 'token_revoked' } });
    const store = setupStore({ auth: signedInAuth({ token: 'tok' }) });
    const pending = store.dispatch(deleteAccount({ password: 'correct horse battery' }));
    // The server closes this session's sockets before it answers: the app signs out meanwhile.
    store.dispatch(socketEvents.serverDisconnected());
    await vi.waitFor(() => expect(store.getState().auth.isAuthenticated).toBe(false));
    const result = await pending;
    expect(deleteAccount.fulfilled.match(result)).toBe(true);
    expect(result.payload).toBe('2026-12-12T10:00:00Z');
    expect(mockApi.calls('POST', '/user/delete-account')[0].body).toEqual({ password: 'correct horse battery' });
    expect(localStorage.getItem('jwt')).toBeNull();
  });

  it("a refused deletion keeps the session and says why, else 'Could not delete your account'", async () => {
    mockApi.on('POST', '/user/delete-account', { status: 500 });
    mockApi.on('POST', '/user/delete-account', { status: 400, body: { message: 'Password is incorrect', code: 'invalid_credentials' } }, { once: true });
    const store = setupStore({ auth: signedInAuth({ token: 'tok' }) });
    let result = await store.dispatch(deleteAccount({ password: 'nope' }));
    expect(result.payload).toBe('Password is incorrect');
    result = await store.dispatch(deleteAccount({ password: 'nope' }));
    expect(result.payload).toBe('Could not delete your account');
    expect(store.getState().auth.isAuthenticated).toBe(true);
    expect(mockApi.calls('POST', '/auth/logout')).toHaveLength(0);
  });

  it('a server close during a password change waits for the new token before checking', async () => {
    localStorage.setItem('jwt', 'old');
    mockApi.on('POST', '/auth/change-password', { body: { message: 'ok', token: 'new' }, delayMs: 30 });
    mockApi.on('GET', '/auth/check', (req) =>
      req.headers.get('Authorization') === 'Bearer new'
        ? { body: { ...testUser, token: 'new', isAccountVerified: true } }
        : { status: 401, body: { message: 'Your session has ended. Please log in again.', code: 'token_revoked' } },
    );
    const store = setupStore({ auth: signedInAuth({ token: 'old' }) });
    const change = store.dispatch(changePassword({ currentPassword: 'a', newPassword: 'b' }));
    store.dispatch(socketEvents.serverDisconnected());
    await change;
    await vi.waitFor(() => expect(mockApi.calls('GET', '/auth/check')).toHaveLength(1));
    await vi.waitFor(() => expect(store.getState().auth.isCheckingAuth).toBe(false));
    expect(store.getState().auth).toMatchObject({ isAuthenticated: true, token: 'new', sessionExpired: false });
  });
});
