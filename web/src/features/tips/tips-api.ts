/**
 * Tips: a reader thanks a writer for one post with a one-off payment. The wire types are the
 * generated ones (src/api/endpoints.ts); the fallback texts are shown when the server gives no
 * message. Sending a tip carries an Idempotency-Key, so a retry never charges twice.
 */
import type {
  GetPostByIdSupportersApiResponse,
  GetTipsOptionsByPostIdApiResponse,
  GetTipsSentApiResponse,
  PostTipsApiResponse,
} from '@/api/endpoints';
import { request } from '@/lib/http';

export type Tip = GetTipsSentApiResponse['tips'][number];
export type TipOptions = GetTipsOptionsByPostIdApiResponse;
export type Supporter = GetPostByIdSupportersApiResponse['supporters'][number];
export type TipAnswer = PostTipsApiResponse;

export const TIP_MESSAGE_MAX = 280;
export const TIPS_PAGE_SIZE = 10;
export const SUPPORTERS_PAGE_SIZE = 10;

export const TIP_MESSAGES = {
  thanks: 'Thank you for your tip',
  confirming: 'Your payment is being confirmed: the tip appears under Tips you sent once it is.',
  refunded: 'Tip refunded',
  settingsSaved: 'Tip settings saved',
} as const;

/**
 * The server's reasons (`GET /tips/options`) the card treats apart: a signed-out reader is told
 * to sign in (the card then offers the log-in link), and a writer always reads that they cannot
 * tip their own post (the card then tells them what readers see).
 */
export const SIGN_IN_REASON = 'Sign in to support this post';
export const OWN_POST_REASON = 'You cannot tip your own post';

export const TIP_FALLBACK = {
  options: 'Failed to load the support options',
  send: 'Failed to send your tip',
  received: 'Failed to fetch the tips you received',
  sent: 'Failed to fetch the tips you sent',
  supporters: 'Failed to fetch supporters',
  hide: 'Failed to change the message',
  refund: 'Failed to refund the tip',
  settings: 'Failed to fetch your tip settings',
  saveSettings: 'Failed to save your tip settings',
} as const;

export interface TipInput {
  postId: string;
  amount: number;
  currency: string;
  message: string | null;
  public: boolean;
}

export const tipsApi = {
  /** `POST /tips`: 201 paid, 202 to confirm in the browser, 200 the same tip again (one charge). */
  send: (input: TipInput, idempotencyKey: string) =>
    request<TipAnswer>('/tips', { method: 'POST', body: input, headers: { 'Idempotency-Key': idempotencyKey }, fallback: TIP_FALLBACK.send }),
};
