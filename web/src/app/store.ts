import { combineSlices, configureStore, createAction, createDynamicMiddleware, createListenerMiddleware, type Middleware, type Reducer } from '@reduxjs/toolkit';
import type { ApiState } from '@/api/base-api';
import { addAdminListeners } from '@/features/admin/admin-entry';
import type { AdminState } from '@/features/admin/admin-slice';
import type { OperationsState } from '@/features/admin/operations-slice';
import { addAuthListeners } from '@/features/auth/auth-listeners';
import { authReducer } from '@/features/auth/auth-slice';
import { blocksReducer } from '@/features/blocks/blocks-slice';
import { bannerReducer } from '@/features/banner';
import { categoriesReducer } from '@/features/categories';
import type { CommentsState } from '@/features/comments/comments-slice';
import { addEngagementListeners } from '@/features/engagement/engagement-listeners';
import { interactionsReducer } from '@/features/engagement/interactions-slice';
import { addFollowsListeners } from '@/features/follows/follows-listeners';
import type { ImportsState } from '@/features/import/import-slice';
import { followsReducer } from '@/features/follows/follows-slice';
import { consentReducer } from '@/features/consent';
import { feedbackReducer } from '@/features/feedback';
import { guestReducer } from '@/features/guest';
import { locationReducer } from '@/features/location';
import { notificationsReducer } from '@/features/notifications';
import { addPostsListeners, postsReducer, suggestedReducer } from '@/features/posts';
import { searchReducer } from '@/features/search';
import { createSocketMiddleware, socketReducer } from '@/features/socket';
import type { PaymentsState } from '@/features/payments/payments-slice';
import type { SubscriptionsState } from '@/features/subscriptions/subscriptions-slice';
import type { TipsState } from '@/features/tips/tips-slice';
import { themeReducer } from '@/features/theme';
import { addUsersListeners, usersReducer } from '@/features/users';
import { onStoreExtended, storeExtensions } from '@/lib/store-extensions';
import type { AppStartListening } from './listeners';
import { sessionMiddleware } from './session-middleware';

/** The slices every page may need, in the first load. */
const staticReducers = {
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
  suggested: suggestedReducer,
  follows: followsReducer,
  users: usersReducer,
  location: locationReducer,
  guest: guestReducer,
  blocks: blocksReducer,
};

/**
 * The slices of features loaded on demand (the administrators' area, plans and subscriptions,
 * bank details and earnings, a post's comments, tips, imports, RTK Query's cache): their code is not in a reader's first load; each
 * injects its reducer when its module loads (`injectReducers`), under the same key as ever, so the
 * state's shape is the one the seed describes once they are there.
 */
export interface LazyState {
  admin: AdminState;
  operations: OperationsState;
  subscriptions: SubscriptionsState;
  payments: PaymentsState;
  comments: CommentsState;
  /** The support card's drafts and sends, and the tips a writer received live. */
  tips: TipsState;
  /** The settings page's Import screen: the import on screen and the writer's earlier ones. */
  imports: ImportsState;
  /** RTK Query's cache of the generated endpoints (api/endpoints.ts), once a screen using them loads. */
  api: ApiState;
}

export const rootReducer = combineSlices(staticReducers).withLazyLoadedSlices<LazyState>();

type StaticState = { [K in keyof typeof staticReducers]: ReturnType<(typeof staticReducers)[K]> };
/** The state, with the lazily loaded slices (present wherever their code runs). */
export type RootState = StaticState & LazyState;

/** Dispatched to every store when a reducer is injected, so its state appears at once. */
export const reducersInjected = createAction<string[]>('app/reducersInjected');

interface LiveStore {
  dispatch: (action: ReturnType<typeof reducersInjected>) => unknown;
}
const liveStores = new Set<WeakRef<LiveStore>>();
/** Each store's way to take more middleware (its dynamic middleware). */
const addMiddlewareTo = new WeakMap<LiveStore, (...middleware: Middleware[]) => unknown>();
const injected = new Set<string>();

function forEachLiveStore(run: (store: LiveStore) => void) {
  for (const ref of liveStores) {
    const store = ref.deref();
    if (store) run(store);
    else liveStores.delete(ref);
  }
}

/** Adds the reducers of a feature loaded on demand to the root reducer (once; later calls do nothing). */
export function injectReducers(reducers: { [K in keyof LazyState]?: Reducer<LazyState[K]> }): void {
  const added: string[] = [];
  for (const [reducerPath, reducer] of Object.entries(reducers)) {
    if (!reducer || injected.has(reducerPath)) continue;
    injected.add(reducerPath);
    (rootReducer.inject as (slice: { reducerPath: string; reducer: Reducer }) => unknown)({ reducerPath, reducer: reducer as Reducer });
    added.push(reducerPath);
  }
  if (added.length === 0) return;
  forEachLiveStore((store) => store.dispatch(reducersInjected(added)));
}

// A part of the store that arrives with code loaded on demand (the API cache): its middleware
// joins every store already made (new stores take it in setupStore), then its reducer.
onStoreExtended(({ reducerPath, reducer, middleware }) => {
  forEachLiveStore((store) => addMiddlewareTo.get(store)?.(...middleware));
  injectReducers({ [reducerPath]: reducer });
});

export function setupStore(preloadedState?: Partial<RootState>) {
  const listeners = createListenerMiddleware();
  const startListening = listeners.startListening as AppStartListening;
  addUsersListeners(startListening);
  addPostsListeners(startListening);
  addEngagementListeners(startListening);
  addAdminListeners(startListening);
  addFollowsListeners(startListening);
  addAuthListeners(startListening);
  // Middleware that comes with code loaded on demand (store-extensions.ts) is added here.
  const dynamic = createDynamicMiddleware();
  for (const extension of storeExtensions()) dynamic.addMiddleware(...extension.middleware);
  const store = configureStore({
    reducer: rootReducer as unknown as Reducer<RootState>,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) => getDefault().prepend(listeners.middleware).concat(dynamic.middleware, sessionMiddleware, createSocketMiddleware()),
  });
  liveStores.add(new WeakRef(store));
  addMiddlewareTo.set(store, dynamic.addMiddleware);
  return store;
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];
