import type {
  GetAuthCheckApiResponse,
  PostAuth2FaVerifyApiResponse,
  PostAuthChangePasswordApiResponse,
  PostAuthGoogleLoginApiResponse,
  PostAuthLoginApiResponse,
  PostAuthLogoutAllApiResponse,
  PostAuthLogoutApiResponse,
  PostAuthPasskeysLoginOptionsApiResponse,
  PostAuthPasskeysLoginVerifyApiResponse,
  PostAuthResetPasswordApiResponse,
  PostAuthSendResetOtpApiResponse,
  PostAuthSendVerifyOtpApiResponse,
  PostAuthSignupApiResponse,
  PostAuthVerifyEmailApiResponse,
  PostAuthVerifyResetOtpApiResponse,
  PostUserDeleteAccountApiResponse,
} from '@/api/endpoints';
import type { Schemas } from '@/api';
import { http } from '@/lib/http';
import type { AuthenticationResponseJSON } from '@/lib/webauthn';

export type Role = 'user' | 'admin';

/** The answer to a right password on an account with two-factor sign-in (`{twoFactorRequired: true, challenge}`). */
export type ChallengeResponse = Schemas['ChallengeAnswer'];

export function isChallenge<T extends object>(r: T | ChallengeResponse): r is ChallengeResponse {
  return 'twoFactorRequired' in r && r.twoFactorRequired === true;
}

/** A role as the app knows it (the server's are `user` and `admin`). */
export function roleOf(role: string): Role {
  return role === 'admin' ? 'admin' : 'user';
}

export interface SignupPayload {
  fullName: string;
  email: string;
  password: string;
  sendEmail: boolean;
}

/** The browser's answer to a passkey sign-in challenge (`AuthenticationResponseJSON`). */
export interface PasskeyLoginPayload {
  challengeId: string;
  credential: AuthenticationResponseJSON;
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
  deleteAccount: 'Could not delete your account',
  passkeyOptions: 'Could not start signing in with a passkey',
  passkeyLogin: 'Signing in with a passkey failed',
} as const;

export const authApi = {
  signup: (payload: SignupPayload) => http.post<PostAuthSignupApiResponse>('/auth/signup', payload, FALLBACK.signup),
  login: (payload: { email: string; password: string }) =>
    http.post<PostAuthLoginApiResponse>('/auth/login', payload, FALLBACK.login),
  verifyTwoFactor: (payload: { challenge: string; code: string }) =>
    http.post<PostAuth2FaVerifyApiResponse>('/auth/2fa/verify', payload, FALLBACK.verifyTwoFactor),
  googleLogin: (payload: { token: string; sendEmail: boolean }) =>
    http.post<PostAuthGoogleLoginApiResponse>('/auth/google-login', payload, FALLBACK.googleLogin),
  sendVerifyOtp: (payload: { userId: string }) =>
    http.post<PostAuthSendVerifyOtpApiResponse>('/auth/send-verify-otp', payload, FALLBACK.sendVerifyOtp),
  verifyEmail: (payload: { userId: string; otp: string }) =>
    http.post<PostAuthVerifyEmailApiResponse>('/auth/verify-email', payload, FALLBACK.verifyEmail),
  sendResetOtp: (payload: { email: string }) =>
    http.post<PostAuthSendResetOtpApiResponse>('/auth/send-reset-otp', payload, FALLBACK.sendResetOtp),
  verifyResetOtp: (payload: { email: string; otp: string }) =>
    http.post<PostAuthVerifyResetOtpApiResponse>('/auth/verify-reset-otp', payload, FALLBACK.verifyResetOtp),
  resetPassword: (payload: { email: string; otp: string; newPassword: string }) =>
    http.post<PostAuthResetPasswordApiResponse>('/auth/reset-password', payload, FALLBACK.resetPassword),
  check: () => http.get<GetAuthCheckApiResponse>('/auth/check', FALLBACK.checkAuth),
  logout: () => http.post<PostAuthLogoutApiResponse>('/auth/logout', {}, FALLBACK.logout),
  changePassword: (
    payload: { currentPassword: string; newPassword: string } | { newPassword: string; passkey: { challengeId: string; credential: Record<string, unknown> } },
  ) =>
    http.post<PostAuthChangePasswordApiResponse>('/auth/change-password', payload, FALLBACK.changePassword),
  logoutEverywhere: () => http.post<PostAuthLogoutAllApiResponse>('/auth/logout-all', {}, FALLBACK.logoutEverywhere),
  deleteAccount: (payload: { password: string } | { passkey: { challengeId: string; credential: Record<string, unknown> } }) =>
    http.post<PostUserDeleteAccountApiResponse>('/user/delete-account', payload, FALLBACK.deleteAccount),
  /** A sign-in challenge for any passkey of this site (no account named: the passkey tells). */
  passkeyLoginOptions: () => http.post<PostAuthPasskeysLoginOptionsApiResponse>('/auth/passkeys/login/options', {}, FALLBACK.passkeyOptions),
  passkeyLogin: (payload: PasskeyLoginPayload) =>
    http.post<PostAuthPasskeysLoginVerifyApiResponse>('/auth/passkeys/login/verify', payload, FALLBACK.passkeyLogin),
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
