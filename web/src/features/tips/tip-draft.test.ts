// The support card's draft: per reader and post in the tab's storage, and its Idempotency-Key.
import { attemptFor, clearTipDraft, emptyTipDraft, newIdempotencyKey, readTipDraft, tipDraftKey, writeTipDraft } from './tip-draft';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the tip draft in sessionStorage', () => {
  it('is kept per reader and post, and read back as it was written', () => {
    const draft = { choice: 'other' as const, other: '7.50', message: 'Thanks!', public: true, attempt: { key: 'k1', amount: 750, currency: 'usd', message: 'Thanks!', public: true } };
    writeTipDraft('u1', 'p1', draft);
    expect(sessionStorage.getItem(tipDraftKey('u1', 'p1'))).not.toBeNull();
    expect(readTipDraft('u1', 'p1')).toEqual(draft);
    expect(readTipDraft('u2', 'p1')).toBeNull();
    expect(readTipDraft('u1', 'p2')).toBeNull();
    clearTipDraft('u1', 'p1');
    expect(readTipDraft('u1', 'p1')).toBeNull();
  });

  it('reads what is not a draft as nothing, and a broken field as its empty value', () => {
    sessionStorage.setItem(tipDraftKey('u1', 'p1'), '{not json');
    expect(readTipDraft('u1', 'p1')).toBeNull();
    sessionStorage.setItem(tipDraftKey('u1', 'p1'), JSON.stringify({ choice: -5, other: 3, message: 'Hi', public: 'yes', attempt: { key: 1 } }));
    expect(readTipDraft('u1', 'p1')).toEqual({ ...emptyTipDraft(), message: 'Hi' });
  });
});

describe('the Idempotency-Key', () => {
  it('is a version 4 UUID, with or without crypto.randomUUID', () => {
    expect(newIdempotencyKey()).toMatch(UUID);
    // Outside a secure context (a plain-HTTP address other than localhost) there is no randomUUID.
    const own = Object.getOwnPropertyDescriptor(crypto, 'randomUUID');
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 20 }, () => newIdempotencyKey()));
      expect(keys.size).toBe(20);
      for (const key of keys) expect(key).toMatch(UUID);
    } finally {
      if (own) Object.defineProperty(crypto, 'randomUUID', own);
      else delete (crypto as { randomUUID?: unknown }).randomUUID;
    }
    expect(typeof crypto.randomUUID).toBe('function');
  });

  it('is sent again for the same tip, and new for a different one', () => {
    const tip = { amount: 500, currency: 'usd', message: 'Thanks', public: true };
    let n = 0;
    const makeKey = () => `key-${++n}`;
    const first = attemptFor(null, tip, makeKey);
    expect(first.key).toBe('key-1');
    expect(attemptFor(first, { ...tip }, makeKey)).toBe(first);
    expect(attemptFor(first, { ...tip, amount: 700 }, makeKey).key).toBe('key-2');
    expect(attemptFor(first, { ...tip, message: 'Thanks!' }, makeKey).key).toBe('key-3');
    expect(attemptFor(first, { ...tip, public: false }, makeKey).key).toBe('key-4');
  });
});
