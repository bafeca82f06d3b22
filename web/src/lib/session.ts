/**
 * The signed-in account changed: a logout, an expired session, or another account signing in
 * in this tab. Every slice that holds something of the previous user's (their categories,
 * notifications, profile, follower locations, feeds, interactions...) clears it on this action,
 * so nothing of one account shows to the next. `app/session-middleware.ts` dispatches it.
 */
import { createAction } from '@reduxjs/toolkit';

export const sessionUserChanged = createAction<{ previousUserId: string; userId: string | null }>('session/userChanged');

/**
 * The signed-in user's public face changed (a saved name or avatar): the top bar, the avatar
 * menu and every list that shows them as an author or a person update without a reload.
 */
export const ownProfileChanged = createAction<{ _id: string; name: string; avatar: string | null }>('session/ownProfileChanged');
