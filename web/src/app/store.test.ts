import type { Middleware, UnknownAction } from '@reduxjs/toolkit';
import { extendStore } from '@/lib/store-extensions';
import { setupStore } from './store';

describe('parts of the store that come with code loaded on demand', () => {
  it('join the stores made before and after they are announced', () => {
    const seen: string[] = [];
    const watcher: Middleware = () => (next) => (action) => {
      seen.push((action as UnknownAction).type);
      return next(action);
    };
    const counter = (state = 0, action: UnknownAction) => (action.type === 'lateFeature/bumped' ? state + 1 : state);
    const before = setupStore();

    extendStore({ reducerPath: 'lateFeature', reducer: counter, middleware: [watcher] });
    const after = setupStore();

    for (const store of [before, after]) {
      store.dispatch({ type: 'lateFeature/bumped' });
      expect((store.getState() as unknown as { lateFeature: number }).lateFeature).toBe(1);
    }
    expect(seen.filter((type) => type === 'lateFeature/bumped')).toHaveLength(2);
  });
});
