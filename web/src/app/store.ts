import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { addAdminListeners, adminReducer, operationsReducer } from '@/features/admin';
import { achievementsReducer } from '@/features/achievements/achievements-slice';
import { analyticsReducer } from '@/features/analytics/analytics-slice';
import { addAuthListeners } from '@/features/auth/auth-listeners';
import { authReducer } from '@/features/auth/auth-slice';
import { blocksReducer } from '@/features/blocks/blocks-slice';
import { bannerReducer } from '@/features/banner';
import { categoriesReducer } from '@/features/categories';
import { commentsReducer } from '@/features/comments/comments-slice';
import { addEngagementListeners } from '@/features/engagement/engagement-listeners';
import { interactionsReducer } from '@/features/engagement/interactions-slice';
import { addFollowsListeners } from '@/features/follows/follows-listeners';
import { followsReducer } from '@/features/follows/follows-slice';
import { consentReducer } from '@/features/consent';
import { feedbackReducer } from '@/features/feedback';
import { guestReducer } from '@/features/guest';
import { locationReducer } from '@/features/location';
import { notificationsReducer } from '@/features/notifications';
import { addPostsListeners, postsReducer, suggestedReducer } from '@/features/posts';
import { searchReducer } from '@/features/search';
import { createSocketMiddleware, socketReducer } from '@/features/socket';
import { paymentsReducer } from '@/features/payments/payments-slice';
import { subscriptionsReducer } from '@/features/subscriptions/subscriptions-slice';
import { themeReducer } from '@/features/theme';
import { addUsersListeners, usersReducer } from '@/features/users';
import type { AppStartListening } from './listeners';
import { sessionMiddleware } from './session-middleware';

export const rootReducer = combineReducers({
  auth: authReducer,
  theme: themeReducer,
  consent: consentReducer,
  socket: socketReducer,
  banner: bannerReducer,
  feedback: feedbackReducer,
  notifications: notificationsReducer,
  search: searchReducer,
  categories: categoriesReducer,
  posts: postsReducer,
  interactions: interactionsReducer,
  comments: commentsReducer,
  suggested: suggestedReducer,
  follows: followsReducer,
  users: usersReducer,
  location: locationReducer,
  guest: guestReducer,
  admin: adminReducer,
  operations: operationsReducer,
  subscriptions: subscriptionsReducer,
  payments: paymentsReducer,
  blocks: blocksReducer,
  achievements: achievementsReducer,
  analytics: analyticsReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function setupStore(preloadedState?: Partial<RootState>) {
  const listeners = createListenerMiddleware();
  const startListening = listeners.startListening as AppStartListening;
  addUsersListeners(startListening);
  addPostsListeners(startListening);
  addEngagementListeners(startListening);
  addAdminListeners(startListening);
  addFollowsListeners(startListening);
  addAuthListeners(startListening);
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) => getDefault().prepend(listeners.middleware).concat(sessionMiddleware, createSocketMiddleware()),
  });
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];
