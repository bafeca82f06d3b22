/**
 * What a reader has typed into a post's support card, and the attempt last sent, kept per tab
 * (sessionStorage) per reader and post: a reload or a retry after a time-out sends the same
 * Idempotency-Key again and loses nothing typed. Cleared once the tip went through.
 */
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { sessionStore } from '@/lib/storage';

export { newIdempotencyKey };

export interface TipAttempt {
  /** The Idempotency-Key of this attempt. */
  key: string;
  amount: number;
  currency: string;
  message: string;
  public: boolean;
}

export interface TipDraft {
  /** The suggested amount chosen (minor units), 'other' for a typed one, null before a choice. */
  choice: number | 'other' | null;
  /** The other amount as typed (major units). */
  other: string;
  message: string;
  public: boolean;
  /** The attempt last sent; its key is sent again while what is sent stays the same. */
  attempt: TipAttempt | null;
}

export const emptyTipDraft = (): TipDraft => ({ choice: null, other: '', message: '', public: false, attempt: null });

const KEY_PREFIX = 'tipDraft:';

export function tipDraftKey(userId: string, postId: string): string {
  return `${KEY_PREFIX}${userId}:${postId}`;
}

function isAttempt(value: unknown): value is TipAttempt {
  if (!value || typeof value !== 'object') return false;
  const a = value as Record<string, unknown>;
  return typeof a.key === 'string' && typeof a.amount === 'number' && typeof a.currency === 'string' && typeof a.message === 'string' && typeof a.public === 'boolean';
}

/** The stored draft, or null when there is none (or it is not one). */
export function readTipDraft(userId: string, postId: string): TipDraft | null {
  const raw = sessionStore.get(tipDraftKey(userId, postId));
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Record<string, unknown>;
    const choice = d.choice === 'other' || (typeof d.choice === 'number' && d.choice > 0) ? d.choice : null;
    return {
      choice,
      other: typeof d.other === 'string' ? d.other : '',
      message: typeof d.message === 'string' ? d.message : '',
      public: d.public === true,
      attempt: isAttempt(d.attempt) ? d.attempt : null,
    };
  } catch {
    return null;
  }
}

export function writeTipDraft(userId: string, postId: string, draft: TipDraft): void {
  sessionStore.set(tipDraftKey(userId, postId), JSON.stringify(draft));
}

export function clearTipDraft(userId: string, postId: string): void {
  sessionStore.remove(tipDraftKey(userId, postId));
}

/**
 * The attempt to send now: the last one again (same key) when the same tip is sent, a new key
 * when anything sent differs.
 */
export function attemptFor(last: TipAttempt | null, tip: Omit<TipAttempt, 'key'>, makeKey = newIdempotencyKey): TipAttempt {
  const same = last && last.amount === tip.amount && last.currency === tip.currency && last.message === tip.message && last.public === tip.public;
  return same ? last : { ...tip, key: makeKey() };
}
