import type { Middleware } from '@reduxjs/toolkit';
import { sessionUserChanged } from '@/lib/session';

type WithUser = { auth: { user: { _id: string } | null } };

const userIdOf = (state: unknown) => (state as WithUser).auth.user?._id ?? null;

/**
 * Watches the signed-in user: when the user who was signed in is no longer (logout, an expired
 * session) or another one takes their place, it announces `session/userChanged` right after the
 * action that changed it, so the slices drop the previous user's data.
 */
export const sessionMiddleware: Middleware = (api) => (next) => (action) => {
  const before = userIdOf(api.getState());
  const result = next(action);
  const after = userIdOf(api.getState());
  if (before !== null && before !== after) api.dispatch(sessionUserChanged({ previousUserId: before, userId: after }));
  return result;
};
