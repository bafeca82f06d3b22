import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { signedInAuth } from '@/test/render';
import type { Plan, Subscription } from '@/types/money';
import { MISSING_PLAN_ID, MISSING_TOKEN, SUBSCRIPTION_FALLBACK, SUBSCRIPTION_MESSAGES } from './subscriptions-api';
import {
  activatePlan,
  cancelSubscription,
  deletePlan,
  fetchAuthorPlans,
  fetchMyPlans,
  fetchMySubscriptions,
  fetchSubscriptionStatus,
  refundSubscription,
  sendRenewalReminders,
  subscribe,
  unsubscribeAuthor,
} from './subscriptions-slice';
import { standingText } from './components/reader-plans';

const plan = (id: string, over: Partial<Plan> = {}): Plan => ({
  _id: id,
  authorId: 'au',
  name: id,
  description: '',
  price: 500,
  currency: 'usd',
  interval: 'month',
  benefits: [],
  status: 'active',
  isDeleted: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  mode: 'test',
  ...over,
});
const sub = (id: string, over: Partial<Subscription> = {}): Subscription => ({
  _id: id,
  subscriptionId: id,
  planId: 'p1',
  planName: 'p1',
  authorId: 'au',
  status: 'active',
  hasAccess: true,
  ...over,
});

function signedIn() {
  localStorage.setItem('jwt', 'tok');
  return setupStore({ auth: { ...signedInAuth(), token: 'tok' } });
}

describe('the subscriptions slice', () => {
  it("refuses to subscribe without a token: 'Missing authentication token', nothing sent", async () => {
    const store = setupStore();
    const r = await store.dispatch(subscribe('p1'));
    expect(r.payload).toBe(MISSING_TOKEN);
    expect(store.getState().subscriptions.error).toBe(MISSING_TOKEN);
    expect(mockApi.calls('POST', '/subscription/subscribe')).toHaveLength(0);
  });

  it("takes the stored jwt as the token, and refuses an empty plan id: 'Missing plan ID'", async () => {
    localStorage.setItem('jwt', 'stored');
    const store = setupStore();
    const r = await store.dispatch(subscribe(''));
    expect(r.payload).toBe(MISSING_PLAN_ID);
  });

  it('subscribing marks the plan as subscribed and says so; a second click while it is in flight sends nothing', async () => {
    const store = signedIn();
    mockApi.on('POST', '/subscription/subscribe', { status: 201, delayMs: 20, body: { message: SUBSCRIPTION_MESSAGES.subscribed, subscription: sub('s1'), mode: 'test' } });
    const first = store.dispatch(subscribe('p1'));
    const second = store.dispatch(subscribe('p1'));
    expect(store.getState().subscriptions.pending['subscribe:p1']).toBe(true);
    await Promise.all([first, second]);
    expect(mockApi.calls('POST', '/subscription/subscribe')).toHaveLength(1);
    const state = store.getState().subscriptions;
    expect(state.subscribedPlanIds).toEqual(['p1']);
    expect(state.message).toBe('Subscribed successfully');
    expect(state.authorStatus.value).toEqual({ isSubscribed: true, status: 'active', subscriptionId: 's1' });
    expect(state.mode).toBe('test');
    expect(state.pending).toEqual({});
  });

  it("prefers the server's message on a failed subscribe, else the fallback", async () => {
    const store = signedIn();
    mockApi.on('POST', '/subscription/subscribe', { status: 409, body: { message: 'You are already subscribed to this author' } });
    await store.dispatch(subscribe('p1'));
    expect(store.getState().subscriptions.error).toBe('You are already subscribed to this author');
    mockApi.on('POST', '/subscription/subscribe', { status: 500, body: {} });
    await store.dispatch(subscribe('p1'));
    expect(store.getState().subscriptions.error).toBe(SUBSCRIPTION_FALLBACK.subscribe);
  });

  it('cancel sets the status cancelled, unsubscribed, and asks for the subscribed plans again', async () => {
    const store = signedIn();
    mockApi.on('GET', '/subscription/my-subscriptions', { body: { plans: [sub('s1')], count: 1 } });
    mockApi.on('POST', '/subscription/status', { body: { isSubscribed: true, status: 'active', subscriptionId: 's1' } });
    await store.dispatch(fetchMySubscriptions());
    await store.dispatch(fetchSubscriptionStatus({ userId: 'u1', authorId: 'au' }));
    expect(store.getState().subscriptions.subscribedPlanIds).toEqual(['p1']);
    mockApi.on('PATCH', '/subscription/subscriptions/s1/cancel', { body: { message: SUBSCRIPTION_MESSAGES.cancelled, subscription: sub('s1', { status: 'cancelled' }) } });
    await store.dispatch(cancelSubscription('s1'));
    const state = store.getState().subscriptions;
    expect(state.message).toBe('Subscription cancelled successfully');
    expect(state.mySubscriptions.value[0].status).toBe('cancelled');
    expect(state.authorStatus.value).toMatchObject({ isSubscribed: false, status: 'cancelled' });
    expect(state.subscribedPlanIds).toEqual([]);
    expect(state.mySubscriptions.stale).toBe(true);
  });

  it('refund sets the status refunded and sends the reason and the chosen bank details once', async () => {
    const store = signedIn();
    mockApi.on('GET', '/subscription/my-subscriptions', { body: { plans: [sub('s1')], count: 1 } });
    await store.dispatch(fetchMySubscriptions());
    mockApi.on('PATCH', '/subscription/subscriptions/s1/refund', { delayMs: 10, body: { message: SUBSCRIPTION_MESSAGES.refunded, subscription: sub('s1', { status: 'refunded', hasAccess: false }) } });
    const arg = { id: 's1', reason: 'Not for me', bankDetails: { paymentId: 'local_ba_1' } };
    await Promise.all([store.dispatch(refundSubscription(arg)), store.dispatch(refundSubscription(arg))]);
    const calls = mockApi.calls('PATCH', '/subscription/subscriptions/s1/refund');
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ reason: 'Not for me', bankDetails: { paymentId: 'local_ba_1' } });
    const state = store.getState().subscriptions;
    expect(state.message).toBe('Subscription refunded successfully');
    expect(state.mySubscriptions.value[0]).toMatchObject({ status: 'refunded', hasAccess: false });
  });

  it("unsubscribing from an author removes that author's subscriptions", async () => {
    const store = signedIn();
    mockApi.on('GET', '/subscription/my-subscriptions', { body: { plans: [sub('s1'), sub('s2', { authorId: 'other', planId: 'p9' })], count: 2 } });
    await store.dispatch(fetchMySubscriptions());
    mockApi.on('POST', '/subscription/unsubscribe/author', { body: { message: SUBSCRIPTION_MESSAGES.unsubscribed, cancelled: 1 } });
    await store.dispatch(unsubscribeAuthor({ authorId: 'au', userId: 'u1' }));
    const state = store.getState().subscriptions;
    expect(state.mySubscriptions.value.map((s) => s._id)).toEqual(['s2']);
    expect(state.subscribedPlanIds).toEqual(['p9']);
    expect(state.message).toBe('Unsubscribed successfully');
    expect(mockApi.calls('POST', '/subscription/unsubscribe/author')[0].body).toEqual({ authorId: 'au', userId: 'u1' });
  });

  it('deleting a plan removes it from the public list and marks it deleted in my plans; activating replaces or adds it', async () => {
    const store = signedIn();
    mockApi.on('GET', '/subscription/plans/author/au', { body: { plans: [plan('p1'), plan('p2')], count: 2, mode: 'test' } });
    mockApi.on('GET', '/subscription/my-plans', { body: { plans: [plan('p1'), plan('p2')], count: 2 } });
    await store.dispatch(fetchAuthorPlans('au'));
    await store.dispatch(fetchMyPlans());
    expect(mockApi.calls('GET', '/subscription/my-plans')[0].url.searchParams.get('includeDeleted')).toBe('true');
    mockApi.on('DELETE', '/subscription/plans/p1', { body: { message: 'Plan deleted', plan: plan('p1', { isDeleted: true, status: 'inactive' }) } });
    await store.dispatch(deletePlan('p1'));
    let state = store.getState().subscriptions;
    expect(state.authorPlans.value.map((p) => p._id)).toEqual(['p2']);
    expect(state.myPlans.value.find((p) => p._id === 'p1')?.isDeleted).toBe(true);
    mockApi.on('POST', '/subscription/plans/p3/activate', { body: { message: 'Plan activated', plan: plan('p3') } });
    await store.dispatch(activatePlan('p3'));
    mockApi.on('POST', '/subscription/plans/p2/activate', { body: { message: 'Plan activated', plan: plan('p2', { name: 'renamed' }) } });
    await store.dispatch(activatePlan('p2'));
    state = store.getState().subscriptions;
    expect(state.myPlans.value.map((p) => p._id)).toEqual(['p3', 'p1', 'p2']);
    expect(state.authorPlans.value.map((p) => [p._id, p.name])).toEqual([
      ['p3', 'p3'],
      ['p2', 'renamed'],
    ]);
  });

  it("fetching subscribed plans fails with 'Failed to fetch subscribed plans'", async () => {
    const store = signedIn();
    mockApi.on('GET', '/subscription/my-subscriptions', { status: 500, body: {} });
    await store.dispatch(fetchMySubscriptions());
    expect(store.getState().subscriptions.mySubscriptions.error).toBe('Failed to fetch subscribed plans');
  });

  it("sends renewal reminders once at a time and says 'Renewal reminders sent successfully' with the counts", async () => {
    const store = signedIn();
    mockApi.on('POST', '/subscription/reminders', { delayMs: 10, body: { message: 'Renewal reminders sent successfully', sent: 2, alreadySent: 1, failed: 0 } });
    await Promise.all([store.dispatch(sendRenewalReminders()), store.dispatch(sendRenewalReminders())]);
    expect(mockApi.calls('POST', '/subscription/reminders')).toHaveLength(1);
    expect(store.getState().subscriptions.message).toBe('Renewal reminders sent successfully: 2 sent, 1 already reminded this period, 0 failed.');
    mockApi.on('POST', '/subscription/reminders', { status: 500, body: {} });
    await store.dispatch(sendRenewalReminders());
    expect(store.getState().subscriptions.error).toBe('Failed to send renewal reminders');
  });

  it('describes each status to the reader', () => {
    expect(standingText(null)).toBe('You are not subscribed to this author.');
    expect(standingText({ status: 'refunded', currentPeriodEnd: null, graceEndsAt: null, hasAccess: false })).toMatch(/^Refunded/);
    expect(standingText({ status: 'cancelled', currentPeriodEnd: '2030-01-01T00:00:00Z', graceEndsAt: null, hasAccess: true })).toMatch(/keep access until/);
  });
});
