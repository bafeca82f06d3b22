// Seed 001 §3 "Achievements": badges list, metrics.
import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth } from '@/test/render';
import { calculateAchievements, fetchAchievements } from './achievements-slice';

const firstPost = { id: 'first-post', name: 'First Post', description: 'Published a first post', metric: 'posts', threshold: 1, earnedAt: '2024-01-01T00:00:00Z' };
const progress = [
  { ...firstPost, current: 1, earned: true },
  { id: 'prolific-writer', name: 'Prolific Writer', description: 'Published 10 posts', metric: 'posts', threshold: 10, current: 1, earned: false, earnedAt: null },
];

describe('achievements', () => {
  it('calculating the own badges keeps badges, progress, metrics and the new ones', async () => {
    mockApi.on('POST', '/achievement/achievements/calculate', { body: { badges: [firstPost], progress, metrics: { posts: 1 }, newBadges: ['first-post'] } });
    const store = setupStore({ auth: signedInAuth() });
    const done = store.dispatch(calculateAchievements({ userId: 'u1' }));
    expect(store.getState().achievements.status).toBe('loading');
    await done;
    expect(store.getState().achievements).toMatchObject({ userId: 'u1', status: 'succeeded', badges: [firstPost], metrics: { posts: 1 }, newBadges: ['first-post'] });
    expect(store.getState().achievements.progress).toHaveLength(2);
  });

  it("another user's badges are read with userId", async () => {
    mockApi.on('GET', '/achievement/achievements', { body: { badges: [], progress } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchAchievements({ userId: 'u9' }));
    expect(mockApi.calls('GET', '/achievement/achievements')[0].url.searchParams.get('userId')).toBe('u9');
    expect(store.getState().achievements).toMatchObject({ userId: 'u9', status: 'succeeded', badges: [] });
  });

  it("a failure says the server's message, else its fallback", async () => {
    mockApi.on('POST', '/achievement/achievements/calculate', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(calculateAchievements({ userId: 'u1' }));
    expect(store.getState().achievements).toMatchObject({ status: 'failed', error: 'Failed to calculate achievements' });
    mockApi.on('GET', '/achievement/achievements', { status: 403, body: { message: 'You cannot interact with this user', code: 'forbidden' } });
    await store.dispatch(fetchAchievements({ userId: 'u9' }));
    expect(store.getState().achievements.error).toBe('You cannot interact with this user');
  });

  it("another user's load starts clean, and an older answer is dropped", async () => {
    mockApi.on('GET', '/achievement/achievements', (req) =>
      req.url.searchParams.get('userId') === 'slow' ? { body: { badges: [firstPost], progress }, delayMs: 30 } : { body: { badges: [], progress: [] } },
    );
    const store = setupStore({ auth: signedInAuth() });
    const slow = store.dispatch(fetchAchievements({ userId: 'slow' }));
    await store.dispatch(fetchAchievements({ userId: 'fast' }));
    await slow;
    expect(store.getState().achievements).toMatchObject({ userId: 'fast', badges: [] });
  });
});
