// Sending a tip: one request per click burst, the same Idempotency-Key on a retry, nothing typed
// lost on a reload, the draft cleared once the tip went through; live tips for the writer.
import { setupStore } from '@/app/store';
import { socketEvents } from '@/features/socket';
import { sessionUserChanged } from '@/lib/session';
import { mockApi } from '@/test/mock-api';
import { signedInAuth, testUser } from '@/test/render';
import { readTipDraft, tipDraftKey } from './tip-draft';
import { editTipDraft, openTipDraft, RECEIVED_CAP, selectTipDraft, selectTipSend, sendTip, tipFormReset } from './tips-slice';

const tip = (over: Record<string, unknown> = {}) => ({
  id: 't1',
  postId: 'p1',
  post: { id: 'p1', title: 'Tides', slug: 'tides' },
  authorId: 'w1',
  author: { id: 'w1', name: 'Bea' },
  from: { id: testUser._id, name: testUser.name },
  amount: 500,
  currency: 'usd',
  fee: 50,
  net: 450,
  message: 'Thanks!',
  public: true,
  hidden: false,
  status: 'succeeded',
  createdAt: '2026-01-02T00:00:00Z',
  mode: 'test',
  ...over,
});
const thanks = (over: Record<string, unknown> = {}) => ({ message: 'Thank you for your tip', tip: tip(over), payment: { clientSecret: null }, mode: 'test' });

function store() {
  return setupStore({ auth: signedInAuth() });
}

async function typed(s: ReturnType<typeof store>) {
  await s.dispatch(openTipDraft('p1'));
  await s.dispatch(editTipDraft({ postId: 'p1', changes: { choice: 500, message: ' Thanks! ', public: true } }));
}

describe('sending a tip', () => {
  it('sends the amount in minor units with an Idempotency-Key, once for two clicks, and clears the draft', async () => {
    mockApi.on('POST', '/tips', { status: 201, delayMs: 20, body: thanks() });
    const s = store();
    await typed(s);
    expect(readTipDraft(testUser._id, 'p1')).toMatchObject({ choice: 500, message: ' Thanks! ', public: true });
    const first = s.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    const second = s.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    expect(selectTipSend(s.getState(), 'p1').status).toBe('sending');
    await Promise.all([first, second]);
    const calls = mockApi.calls('POST', '/tips');
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ postId: 'p1', amount: 500, currency: 'usd', message: 'Thanks!', public: true });
    expect(calls[0].headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(selectTipSend(s.getState(), 'p1')).toMatchObject({ status: 'succeeded', message: 'Thank you for your tip', confirming: false });
    expect(selectTipDraft(s.getState(), 'p1')).toMatchObject({ choice: null, message: '', attempt: null });
    expect(sessionStorage.getItem(tipDraftKey(testUser._id, 'p1'))).toBeNull();
    s.dispatch(tipFormReset('p1'));
    expect(selectTipSend(s.getState(), 'p1').status).toBe('idle');
  });

  it('sends the same key again after a time-out or a server error, and a new one after a refusal', async () => {
    const s = store();
    await typed(s);
    mockApi.on('POST', '/tips', { status: 500, body: {} }, { once: true });
    await s.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    expect(selectTipSend(s.getState(), 'p1')).toMatchObject({ status: 'failed', error: 'Failed to send your tip' });
    mockApi.on('POST', '/tips', { status: 429, body: { message: 'Too many tips: wait a minute.' } }, { once: true });
    await s.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    expect(selectTipSend(s.getState(), 'p1').error).toBe('Too many tips: wait a minute.');
    mockApi.on('POST', '/tips', { status: 402, body: { message: 'Your card was declined.' } }, { once: true });
    await s.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    expect(selectTipSend(s.getState(), 'p1').error).toBe('Your card was declined.');
    expect(selectTipDraft(s.getState(), 'p1').attempt).toBeNull();
    mockApi.on('POST', '/tips', { status: 201, body: thanks() }, { once: true });
    await s.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    const keys = mockApi.calls('POST', '/tips').map((c) => c.headers.get('Idempotency-Key'));
    expect(keys[0]).toBe(keys[1]);
    expect(keys[1]).toBe(keys[2]);
    expect(keys[3]).not.toBe(keys[2]);
  });

  it('keeps what was typed and the key across a reload (a new store), and sends the same key', async () => {
    mockApi.on(
      'POST',
      '/tips',
      () => {
        throw new TypeError('network down');
      },
      { once: true },
    );
    const before = store();
    await typed(before);
    await before.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    const key = readTipDraft(testUser._id, 'p1')?.attempt?.key;
    expect(key).toBeTruthy();

    const after = store();
    await after.dispatch(openTipDraft('p1'));
    expect(selectTipDraft(after.getState(), 'p1')).toMatchObject({ choice: 500, message: ' Thanks! ', public: true, attempt: { key } });
    mockApi.on('POST', '/tips', { status: 200, body: thanks() });
    await after.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    expect(mockApi.calls('POST', '/tips').at(-1)?.headers.get('Idempotency-Key')).toBe(key);
  });

  it('says the payment is being confirmed when the server answers 202', async () => {
    mockApi.on('POST', '/tips', { status: 202, body: { ...thanks({ status: 'pending' }), payment: { clientSecret: 'pi_secret' } } });
    const s = store();
    await typed(s);
    await s.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    expect(selectTipSend(s.getState(), 'p1')).toMatchObject({ status: 'succeeded', confirming: true, message: 'Your payment is being confirmed: the tip appears under Tips you sent once it is.' });
  });

  it('asks a signed-out reader to log in without sending anything', async () => {
    const s = setupStore();
    await s.dispatch(sendTip({ postId: 'p1', amount: 500, currency: 'usd' }));
    expect(selectTipSend(s.getState(), 'p1').error).toBe('Log in to support this post.');
    expect(mockApi.calls('POST', '/tips')).toHaveLength(0);
  });
});

describe('tips received live', () => {
  it('are kept newest first, once each, at most RECEIVED_CAP; a change of user forgets them and the drafts', async () => {
    const s = store();
    await typed(s);
    const live = (n: number) => socketEvents.tipReceived({ tipId: `t${n}`, postId: 'p1', amount: 100, currency: 'usd', from: null, message: null });
    for (let n = 0; n < RECEIVED_CAP + 2; n += 1) s.dispatch(live(n));
    s.dispatch(live(5));
    const ids = s.getState().tips.received.map((t) => t.tipId);
    expect(ids).toHaveLength(RECEIVED_CAP);
    expect(ids[0]).toBe('t5');
    expect(new Set(ids).size).toBe(ids.length);
    s.dispatch(sessionUserChanged({ previousUserId: testUser._id, userId: null }));
    expect(s.getState().tips).toEqual({ drafts: {}, sends: {}, received: [] });
  });
});
