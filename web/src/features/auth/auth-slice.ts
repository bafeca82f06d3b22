/** Authentication state and transitions (seed 001 §3 "Auth state" and §4 "Authentication"). */
import { createAsyncThunk, createSlice, isPending, type PayloadAction } from '@reduxjs/toolkit';
import { ApiError, errorMessage } from '@/lib/http';
import { ownProfileChanged } from '@/lib/session';
import { storage, TOKEN_KEY } from '@/lib/storage';
import { toast } from '@/lib/toast';
import { authApi, FALLBACK, isChallenge, roleOf, type PasskeyLoginPayload, type Role, type SignupPayload } from './api/auth-api';

export interface AuthUser {
  _id: string;
  name: string;
  email: string;
  role: Role;
}

export interface AuthState {
  user: AuthUser | null;
  role: Role | null;
  isAuthenticated: boolean;
  loading: boolean;
  error: string | null;
  token: string | null;
  isAccountVerified: boolean;
  otpStatus: string | null;
  sessionExpired: boolean;
  isCheckingAuth: boolean;
  authInitialized: boolean;
  /**
   * The last session check failed without a 401 (network, time-out, 5xx): the session is kept
   * and the check is tried again (`useSessionCheckRetry`).
   */
  sessionCheckFailed: boolean;
  /** A password change is in flight (its new token is about to replace the stored one). */
  changingPassword: boolean;
  /** The password was right and two-factor sign-in is on: the challenge awaiting a code. */
  twoFactorChallenge: string | null;
}

export function initialAuthState(): AuthState {
  return {
    user: null,
    role: null,
    isAuthenticated: false,
    loading: false,
    error: null,
    token: storage.get(TOKEN_KEY),
    isAccountVerified: false,
    otpStatus: null,
    sessionExpired: false,
    isCheckingAuth: false,
    authInitialized: false,
    sessionCheckFailed: false,
    changingPassword: false,
    twoFactorChallenge: null,
  };
}

/** A sign-in waiting for its second factor. */
export interface TwoFactorPending {
  twoFactorChallenge: string;
}

export function isPendingSecondFactor(v: unknown): v is TwoFactorPending {
  return Boolean(v && typeof v === 'object' && 'twoFactorChallenge' in v);
}

/** What every successful sign-in (signup, login, Google, check) resolves to. */
export interface Session {
  user: AuthUser;
  token: string;
  isAccountVerified: boolean;
}

/**
 * A failed auth check; `isGuest` marks a visitor who never had a session, `expired` a 401 (the
 * only answer that ends a session; any other failure keeps it and is tried again).
 */
export interface CheckAuthError {
  message: string;
  isGuest: boolean;
  expired: boolean;
}

export const DELETION_CANCELLED = 'Welcome back. Your account will not be deleted.';

/** A sign-in during the grace period of a requested deletion cancelled it: say so. */
function sayIfDeletionCancelled(r: { deletionCancelled?: boolean | null }) {
  if (r.deletionCancelled) toast.success(DELETION_CANCELLED);
}

/** The session a signup or sign-in answered (`SessionBody`). */
function sessionOf(r: { _id: string; fullName: string; email: string; role: string; token: string; isAccountVerified?: boolean | null }): Session {
  return { user: { _id: r._id, name: r.fullName, email: r.email, role: roleOf(r.role) }, token: r.token, isAccountVerified: Boolean(r.isAccountVerified) };
}

function keepToken(session: Session): Session {
  if (session.token) storage.set(TOKEN_KEY, session.token);
  return session;
}

export const signup = createAsyncThunk<Session, SignupPayload, { rejectValue: string }>(
  'auth/signup',
  async (payload, { rejectWithValue }) => {
    try {
      const r = await authApi.signup(payload);
      return keepToken(sessionOf(r));
    } catch (e) {
      return rejectWithValue(errorMessage(e, FALLBACK.signup));
    }
  },
);

export const login = createAsyncThunk<Session | TwoFactorPending, { email: string; password: string }, { rejectValue: string }>(
  'auth/login',
  async (payload, { rejectWithValue }) => {
    try {
      const r = await authApi.login(payload);
      if (isChallenge(r)) return { twoFactorChallenge: r.challenge };
      sayIfDeletionCancelled(r);
      return keepToken(sessionOf(r));
    } catch (e) {
      return rejectWithValue(errorMessage(e, FALLBACK.login));
    }
  },
);

/** The second step of a sign-in with two-factor sign-in on: a TOTP code or a recovery code. */
export const verifyTwoFactor = createAsyncThunk<Session, { challenge: string; code: string }, { rejectValue: string }>(
  'auth/verifyTwoFactor',
  async (payload, { rejectWithValue }) => {
    try {
      const r = await authApi.verifyTwoFactor(payload);
      sayIfDeletionCancelled(r);
      return keepToken(sessionOf(r));
    } catch (e) {
      return rejectWithValue(errorMessage(e, FALLBACK.verifyTwoFactor));
    }
  },
);

/**
 * A sign-in with a passkey: the browser's answer to the server's challenge (the page ran the
 * ceremony); the server answers as for a password sign-in without a second factor.
 */
export const loginWithPasskey = createAsyncThunk<Session, PasskeyLoginPayload, { rejectValue: string }>(
  'auth/loginWithPasskey',
  async (payload, { rejectWithValue }) => {
    try {
      const r = await authApi.passkeyLogin(payload);
      sayIfDeletionCancelled(r);
      return keepToken(sessionOf(r));
    } catch (e) {
      return rejectWithValue(errorMessage(e, FALLBACK.passkeyLogin));
    }
  },
);

export const googleLogin = createAsyncThunk<Session | TwoFactorPending, { token: string; sendEmail: boolean }, { rejectValue: string }>(
  'auth/googleLogin',
  async (payload, { rejectWithValue }) => {
    try {
      const r = await authApi.googleLogin(payload);
      if (isChallenge(r)) return { twoFactorChallenge: r.challenge };
      return keepToken({
        user: { _id: r.user._id, name: r.user.name, email: r.user.email, role: roleOf(r.user.role) },
        token: r.token,
        isAccountVerified: Boolean(r.isAccountVerified),
      });
    } catch (e) {
      return rejectWithValue(errorMessage(e, FALLBACK.googleLogin));
    }
  },
);

export const checkAuth = createAsyncThunk<Session, void, { rejectValue: CheckAuthError }>(
  'auth/checkAuth',
  async (_, { rejectWithValue }) => {
    if (!storage.get(TOKEN_KEY)) {
      return rejectWithValue({ message: 'No session', isGuest: true, expired: false });
    }
    try {
      const r = await authApi.check();
      return keepToken({
        user: { _id: r._id, name: r.name, email: r.email, role: roleOf(r.role) },
        token: r.token || storage.get(TOKEN_KEY) || '',
        isAccountVerified: Boolean(r.isAccountVerified),
      });
    } catch (e) {
      const expired = e instanceof ApiError && e.status === 401;
      return rejectWithValue({ message: errorMessage(e, FALLBACK.checkAuth), isGuest: false, expired });
    }
  },
);

export const logout = createAsyncThunk<void, void, { rejectValue: string }>(
  'auth/logout',
  async (_, { rejectWithValue }) => {
    try {
      await authApi.logout();
    } catch (e) {
      console.warn(errorMessage(e, FALLBACK.logout));
      return rejectWithValue(errorMessage(e, FALLBACK.logout));
    } finally {
      storage.remove(TOKEN_KEY);
    }
  },
);

/**
 * Changes the password, confirmed with the current one or a passkey's step-up assertion: every
 * other session ends, this one carries on with the new token (stored before the answer is handed
 * on, so a session check meanwhile uses it).
 */
export const changePassword = createAsyncThunk<
  string,
  { currentPassword: string; newPassword: string } | { newPassword: string; passkey: { challengeId: string; credential: Record<string, unknown> } },
  { rejectValue: string }
>(
  'auth/changePassword',
  async (payload, { rejectWithValue }) => {
    try {
      const r = await authApi.changePassword(payload);
      if (r?.token) storage.set(TOKEN_KEY, r.token);
      return r?.token ?? '';
    } catch (e) {
      return rejectWithValue(errorMessage(e, FALLBACK.changePassword));
    }
  },
);

/** "Log out everywhere": every session of the account ends, this one too. */
/**
 * Schedules the account's deletion and signs out; resolves with when the account goes. Not an
 * RTK Query mutation: the server closes this session's sockets before its answer arrives, the app
 * may sign out on that first, and RTK Query's reset on a change of user aborts the mutations
 * still running, which would lose the answer.
 */
export const deleteAccount = createAsyncThunk<
  string,
  { password: string } | { passkey: { challengeId: string; credential: Record<string, unknown> } },
  { rejectValue: string }
>(
  'auth/deleteAccount',
  async (payload, { dispatch, rejectWithValue }) => {
    try {
      const r = await authApi.deleteAccount(payload);
      await dispatch(logout());
      return r.deletionScheduledAt;
    } catch (e) {
      return rejectWithValue(errorMessage(e, FALLBACK.deleteAccount));
    }
  },
);

export const logoutEverywhere = createAsyncThunk<void, void, { rejectValue: string }>('auth/logoutEverywhere', async (_, { rejectWithValue }) => {
  try {
    await authApi.logoutEverywhere();
    storage.remove(TOKEN_KEY);
  } catch (e) {
    return rejectWithValue(errorMessage(e, FALLBACK.logoutEverywhere));
  }
});

function otpThunk<Arg>(type: string, call: (arg: Arg) => Promise<{ message: string }>, fallback: string) {
  return createAsyncThunk<string, Arg, { rejectValue: string }>(type, async (arg, { rejectWithValue }) => {
    try {
      const r = await call(arg);
      return r?.message ?? '';
    } catch (e) {
      return rejectWithValue(errorMessage(e, fallback));
    }
  });
}

export const sendVerifyOtp = otpThunk('auth/sendVerifyOtp', authApi.sendVerifyOtp, FALLBACK.sendVerifyOtp);
export const verifyEmail = otpThunk('auth/verifyEmail', authApi.verifyEmail, FALLBACK.verifyEmail);
export const sendResetOtp = otpThunk('auth/sendResetOtp', authApi.sendResetOtp, FALLBACK.sendResetOtp);
export const verifyResetOtp = otpThunk('auth/verifyResetOtp', authApi.verifyResetOtp, FALLBACK.verifyResetOtp);
export const resetPassword = otpThunk('auth/resetPassword', authApi.resetPassword, FALLBACK.resetPassword);

const authThunks = [
  signup,
  login,
  verifyTwoFactor,
  loginWithPasskey,
  googleLogin,
  checkAuth,
  logout,
  sendVerifyOtp,
  verifyEmail,
  sendResetOtp,
  verifyResetOtp,
  resetPassword,
] as const;

function signedIn(state: AuthState, session: Session) {
  state.loading = false;
  state.user = session.user;
  state.role = session.user.role;
  state.isAuthenticated = true;
  state.token = session.token;
  state.isAccountVerified = session.isAccountVerified;
  state.sessionExpired = false;
  state.sessionCheckFailed = false;
  state.error = null;
}

function pendingOrSignedIn(state: AuthState, result: Session | TwoFactorPending) {
  if (isPendingSecondFactor(result)) {
    state.loading = false;
    state.error = null;
    state.twoFactorChallenge = result.twoFactorChallenge;
    return;
  }
  state.twoFactorChallenge = null;
  signedIn(state, result);
}

function signedOut(state: AuthState) {
  state.user = null;
  state.role = null;
  state.token = null;
  state.isAuthenticated = false;
  state.isAccountVerified = false;
}

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    errorCleared(state) {
      state.error = null;
    },
    otpStatusCleared(state) {
      state.otpStatus = null;
    },
    /** Back from the code step to the password form. */
    twoFactorCancelled(state) {
      state.twoFactorChallenge = null;
      state.error = null;
    },
    /** The own profile reported a verification state (e.g. verified in another tab). */
    accountVerificationChanged(state, action: PayloadAction<boolean>) {
      state.isAccountVerified = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(changePassword.pending, (state) => {
        state.changingPassword = true;
      })
      .addCase(changePassword.fulfilled, (state, action) => {
        state.changingPassword = false;
        if (action.payload) state.token = action.payload;
      })
      .addCase(changePassword.rejected, (state) => {
        state.changingPassword = false;
      })
      .addCase(logoutEverywhere.fulfilled, (state) => {
        signedOut(state);
        state.sessionExpired = false;
        state.sessionCheckFailed = false;
      })
      .addCase(ownProfileChanged, (state, action) => {
        if (state.user?._id === action.payload._id) state.user.name = action.payload.name;
      })
      .addCase(signup.fulfilled, (state, action) => signedIn(state, action.payload))
      .addCase(signup.rejected, (state, action) => {
        state.loading = false;
        state.error = action.payload ?? FALLBACK.signup;
      })
      .addCase(login.fulfilled, (state, action) => pendingOrSignedIn(state, action.payload))
      .addCase(verifyTwoFactor.fulfilled, (state, action) => {
        state.twoFactorChallenge = null;
        signedIn(state, action.payload);
      })
      .addCase(loginWithPasskey.fulfilled, (state, action) => {
        state.twoFactorChallenge = null;
        signedIn(state, action.payload);
      })
      .addCase(loginWithPasskey.rejected, (state, action) => {
        state.loading = false;
        state.error = action.payload ?? FALLBACK.passkeyLogin;
      })
      .addCase(verifyTwoFactor.rejected, (state, action) => {
        state.loading = false;
        state.error = action.payload ?? FALLBACK.verifyTwoFactor;
      })
      .addCase(login.rejected, (state, action) => {
        state.loading = false;
        state.error = action.payload ?? FALLBACK.login;
        state.user = null;
        state.role = null;
        state.token = null;
        state.isAuthenticated = false;
      })
      .addCase(googleLogin.fulfilled, (state, action) => pendingOrSignedIn(state, action.payload))
      .addCase(googleLogin.rejected, (state, action) => {
        state.loading = false;
        state.error = action.payload ?? FALLBACK.googleLogin;
      })
      .addCase(checkAuth.pending, (state) => {
        state.isCheckingAuth = true;
      })
      .addCase(checkAuth.fulfilled, (state, action) => {
        signedIn(state, action.payload);
        state.isCheckingAuth = false;
        state.authInitialized = true;
      })
      .addCase(checkAuth.rejected, (state, action) => {
        const isGuest = action.payload?.isGuest ?? false;
        const expired = action.payload?.expired ?? false;
        state.loading = false;
        state.isCheckingAuth = false;
        state.authInitialized = true;
        if (isGuest || expired) {
          signedOut(state);
          state.sessionExpired = expired;
          state.sessionCheckFailed = false;
          state.error = isGuest ? null : (action.payload?.message ?? FALLBACK.checkAuth);
          return;
        }
        // The server could not answer: whoever was signed in stays so, and the check is retried.
        state.sessionCheckFailed = true;
        state.sessionExpired = false;
        state.error = action.payload?.message ?? FALLBACK.checkAuth;
      })
      .addCase(logout.fulfilled, (state) => {
        state.loading = false;
        signedOut(state);
        state.sessionExpired = false;
        state.sessionCheckFailed = false;
      })
      .addCase(logout.rejected, (state) => {
        state.loading = false;
        signedOut(state);
        state.sessionExpired = false;
        state.sessionCheckFailed = false;
      })
      .addCase(verifyEmail.fulfilled, (state, action) => {
        state.loading = false;
        state.isAccountVerified = true;
        state.otpStatus = action.payload;
      });
    for (const thunk of [sendVerifyOtp, sendResetOtp, verifyResetOtp, resetPassword]) {
      builder.addCase(thunk.fulfilled, (state, action) => {
        state.loading = false;
        state.otpStatus = action.payload;
      });
    }
    for (const thunk of [sendVerifyOtp, verifyEmail, sendResetOtp, verifyResetOtp, resetPassword]) {
      builder.addCase(thunk.rejected, (state, action) => {
        state.loading = false;
        state.error = action.payload ?? 'Request failed';
      });
    }
    builder.addMatcher(isPending(...authThunks), (state) => {
      state.loading = true;
      state.error = null;
    });
  },
});

export const { errorCleared, otpStatusCleared, accountVerificationChanged, twoFactorCancelled } = authSlice.actions;
export const authReducer = authSlice.reducer;

type WithAuth = { auth: AuthState };
export const selectAuth = (state: WithAuth) => state.auth;
export const selectCurrentUser = (state: WithAuth) => state.auth.user;
export const selectIsAuthenticated = (state: WithAuth) => state.auth.isAuthenticated;
export const selectIsAdmin = (state: WithAuth) => state.auth.isAuthenticated && state.auth.role === 'admin';
export const selectAuthInitialized = (state: WithAuth) => state.auth.authInitialized;
