// Seed 001 §4 "Analytics fetches go idle, loading, succeeded or failed"; §8 the two fallbacks.
import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth } from '@/test/render';
import { fetchPostStats, fetchUserEngagement, initialAnalyticsState } from './analytics-slice';

const day = { date: '2024-05-01', views: 3, likes: 1, bookmarks: 0, shares: 0, comments: 1, readingTime: 60 };

describe('analytics', () => {
  it('starts idle', () => {
    expect(initialAnalyticsState.userEngagement.status).toBe('idle');
  });

  it('user engagement goes loading, then succeeded with its daily series (30 days)', async () => {
    mockApi.on('GET', '/post/analytics/user-engagement', { body: { userId: 'u1', views: 3, daily: [day] } });
    const store = setupStore({ auth: signedInAuth() });
    const done = store.dispatch(fetchUserEngagement({}));
    expect(store.getState().analytics.userEngagement.status).toBe('loading');
    await done;
    expect(store.getState().analytics.userEngagement).toMatchObject({ status: 'succeeded', data: { views: 3, daily: [day] } });
    expect(mockApi.calls('GET', '/post/analytics/user-engagement')[0].url.searchParams.get('days')).toBe('30');
  });

  it("user engagement fails with 'Failed to fetch user engagement stats'", async () => {
    mockApi.on('GET', '/post/analytics/user-engagement', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchUserEngagement({}));
    expect(store.getState().analytics.userEngagement).toMatchObject({ status: 'failed', error: 'Failed to fetch user engagement stats', data: null });
  });

  it('an administrator reads an author by userId', async () => {
    mockApi.on('GET', '/post/analytics/user-engagement', { body: { userId: 'u7', daily: [] } });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchUserEngagement({ userId: 'u7' }));
    expect(mockApi.calls('GET', '/post/analytics/user-engagement')[0].url.searchParams.get('userId')).toBe('u7');
    expect(store.getState().analytics.userEngagement.userId).toBe('u7');
  });

  it("post stats are kept per post; a failure says 'Failed to fetch post stats'", async () => {
    mockApi.on('GET', '/post/analytics/post/p1', { body: { postId: 'p1', views: 9, daily: [day] } });
    mockApi.on('GET', '/post/analytics/post/p2', { status: 500 });
    const store = setupStore({ auth: signedInAuth() });
    await store.dispatch(fetchPostStats({ postId: 'p1' }));
    await store.dispatch(fetchPostStats({ postId: 'p2' }));
    expect(store.getState().analytics.postStats.p1).toMatchObject({ status: 'succeeded', data: { views: 9 } });
    expect(store.getState().analytics.postStats.p2).toMatchObject({ status: 'failed', error: 'Failed to fetch post stats' });
  });
});
