import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { socketEvents } from '@/features/socket';
import { guestReducer, initialGuestState, trackGuestVisit } from './guest-slice';

describe('guest visits', () => {
  it('is tracked once per browser session and keeps the guest id in local storage', async () => {
    mockApi.on('POST', '/public/guest/visit', { body: { guest: { guestId: 'g1', visitCount: 1, lastVisit: '2026-01-01' } } });
    const store = setupStore();
    await store.dispatch(trackGuestVisit());
    await store.dispatch(trackGuestVisit());
    expect(mockApi.calls('POST', '/public/guest/visit')).toHaveLength(1);
    expect(localStorage.getItem('guestId')).toBe('g1');
  });

  it('ignores a duplicate with the same visitCount and lastVisit and keeps at most 100, newest first', () => {
    let state = initialGuestState();
    state = guestReducer(state, socketEvents.guestVisitUpdated({ guestId: 'g', visitCount: 1, lastVisit: 't1' }));
    state = guestReducer(state, socketEvents.guestVisitUpdated({ guestId: 'g', visitCount: 1, lastVisit: 't1' }));
    expect(state.visits).toHaveLength(1);
    for (let i = 0; i < 120; i += 1) {
      state = guestReducer(state, socketEvents.guestVisitUpdated({ guestId: `g${i}`, visitCount: i + 2, lastVisit: `t${i}` }));
    }
    expect(state.visits).toHaveLength(100);
    expect(state.visits[0].guestId).toBe('g119');
  });

  it("a failure is recorded as 'Failed to track guest visit'", async () => {
    mockApi.on('POST', '/public/guest/visit', { status: 404 });
    const store = setupStore();
    await store.dispatch(trackGuestVisit());
    expect(store.getState().guest.error).toBe('Failed to track guest visit');
  });
});
