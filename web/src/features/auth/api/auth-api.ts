import { http } from '@/lib/http';

export type Role = 'user' | 'admin';

/** Signup and login responses (seed 001 §3). */
export interface SessionResponse {
  _id: string;
  fullName: string;
  email: string;
  role: Role;
  token: string;
  isAccountVerified: boolean;
  /** This sign-in cancelled the account's scheduled deletion. */
  deletionCancelled?: boolean;
}

/** The answer to a right password on an account with two-factor sign-in. */
export interface ChallengeResponse {
  twoFactorRequired: true;
  challenge: string;
}

export function isChallenge(r: unknown): r is ChallengeResponse {
  return Boolean(r && typeof r === 'object' && (r as { twoFactorRequired?: unknown }).twoFactorRequired === true);
}

/** Third-party sign-in response. */
export interface GoogleLoginResponse {
  user: { _id: string; name: string; email: string; role: Role };
  token: string;
  isAccountVerified: boolean;
}

/** Auth check response. */
export interface CheckResponse {
  _id: string;
  name: string;
  email: string;
  role: Role;
  token: string;
  isAccountVerified: boolean;
}

export interface MessageResponse {
  message: string;
}

export interface SignupPayload {
  fullName: string;
  email: string;
  password: string;
  sendEmail: boolean;
}

export const FALLBACK = {
  signup: 'Signup failed',
  login: 'Login failed',
  googleLogin: 'Google login failed',
  sendVerifyOtp: 'Failed to send verification OTP',
  verifyEmail: 'Failed to verify email',
  sendResetOtp: 'Failed to send password reset OTP',
  resetPassword: 'Failed to reset password',
  checkAuth: 'Auth check failed',
  logout: 'Logout failed',
  verifyResetOtp: 'Failed to verify OTP',
  changePassword: 'Failed to change password',
  logoutEverywhere: 'Failed to log out everywhere',
  verifyTwoFactor: 'That code did not work',
} as const;

export const authApi = {
  signup: (payload: SignupPayload) => http.post<SessionResponse>('/auth/signup', payload, FALLBACK.signup),
  login: (payload: { email: string; password: string }) =>
    http.post<SessionResponse | ChallengeResponse>('/auth/login', payload, FALLBACK.login),
  verifyTwoFactor: (payload: { challenge: string; code: string }) =>
    http.post<SessionResponse>('/auth/2fa/verify', payload, FALLBACK.verifyTwoFactor),
  googleLogin: (payload: { token: string; sendEmail: boolean }) =>
    http.post<GoogleLoginResponse | ChallengeResponse>('/auth/google-login', payload, FALLBACK.googleLogin),
  sendVerifyOtp: (payload: { userId: string }) =>
    http.post<MessageResponse>('/auth/send-verify-otp', payload, FALLBACK.sendVerifyOtp),
  verifyEmail: (payload: { userId: string; otp: string }) =>
    http.post<MessageResponse>('/auth/verify-email', payload, FALLBACK.verifyEmail),
  sendResetOtp: (payload: { email: string }) =>
    http.post<MessageResponse>('/auth/send-reset-otp', payload, FALLBACK.sendResetOtp),
  verifyResetOtp: (payload: { email: string; otp: string }) =>
    http.post<MessageResponse>('/auth/verify-reset-otp', payload, FALLBACK.verifyResetOtp),
  resetPassword: (payload: { email: string; otp: string; newPassword: string }) =>
    http.post<MessageResponse>('/auth/reset-password', payload, FALLBACK.resetPassword),
  check: () => http.get<CheckResponse>('/auth/check', FALLBACK.checkAuth),
  logout: () => http.post<MessageResponse>('/auth/logout', {}, FALLBACK.logout),
  changePassword: (payload: { currentPassword: string; newPassword: string }) =>
    http.post<MessageResponse & { token: string }>('/auth/change-password', payload, FALLBACK.changePassword),
  logoutEverywhere: () => http.post<MessageResponse>('/auth/logout-all', {}, FALLBACK.logoutEverywhere),
};

/** `GET /api/config/public`: whether the Google Identity Services button can be offered. */
export interface PublicConfig {
  googleClientId: string | null;
  /** The grace period before a deletion its owner asked for is carried out, in seconds. */
  accountDeletionGraceSeconds: number | null;
}

let publicConfig: Promise<PublicConfig> | null = null;

export function fetchPublicConfig(): Promise<PublicConfig> {
  if (!publicConfig) {
    publicConfig = http
      .get<PublicConfig>('/config/public', 'Failed to load configuration')
      .then((config) => ({
        googleClientId: config?.googleClientId || null,
        accountDeletionGraceSeconds: typeof config?.accountDeletionGraceSeconds === 'number' ? config.accountDeletionGraceSeconds : null,
      }))
      .catch(() => {
        publicConfig = null;
        return { googleClientId: null, accountDeletionGraceSeconds: null };
      });
  }
  return publicConfig;
}

/** Test helper. */
export function resetPublicConfigCache(): void {
  publicConfig = null;
}
