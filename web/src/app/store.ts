import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { authReducer } from '@/features/auth/auth-slice';
import { bannerReducer } from '@/features/banner';
import { categoriesReducer } from '@/features/categories';
import { consentReducer } from '@/features/consent';
import { feedbackReducer } from '@/features/feedback';
import { guestReducer } from '@/features/guest';
import { locationReducer } from '@/features/location';
import { notificationsReducer } from '@/features/notifications';
import { postsReducer } from '@/features/posts';
import { searchReducer } from '@/features/search';
import { createSocketMiddleware, socketReducer } from '@/features/socket';
import { themeReducer } from '@/features/theme';
import { usersReducer } from '@/features/users';

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
  users: usersReducer,
  location: locationReducer,
  guest: guestReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function setupStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) => getDefault().concat(createSocketMiddleware()),
  });
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];
