/** The plans and subscriptions state (see subscriptions-slice.ts). */
import type { Plan, Subscription } from '@/types/money';
import type { StatusAnswer } from './subscriptions-api';

export type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface Loadable<T> {
  value: T;
  status: Status;
  error: string | null;
}

export interface SubscriptionsState {
  /** The active plans of the author whose /plans page is open. */
  authorPlans: Loadable<Plan[]> & { authorId: string | null };
  /** The reader's standing with that author. */
  authorStatus: Loadable<StatusAnswer | null>;
  /** The reader's subscriptions (running, or all with `includeEnded`). */
  mySubscriptions: Loadable<Subscription[]> & { stale: boolean };
  /** The author's own plans, deleted ones included. */
  myPlans: Loadable<Plan[]>;
  /** The plan ids this reader holds a running subscription to. */
  subscribedPlanIds: string[];
  /** Keys of money actions in flight ("subscribe:<plan>", "refund:<subscription>", ...). */
  pending: Record<string, true>;
  message: string | null;
  error: string | null;
  /** Test mode of the payment provider (no real money). */
  mode: string | null;
}

export function loadable<T>(value: T): Loadable<T> {
  return { value, status: 'idle', error: null };
}

export const initialSubscriptionsState: SubscriptionsState = {
  authorPlans: { ...loadable<Plan[]>([]), authorId: null },
  authorStatus: loadable<StatusAnswer | null>(null),
  mySubscriptions: { ...loadable<Subscription[]>([]), stale: false },
  myPlans: loadable<Plan[]>([]),
  subscribedPlanIds: [],
  pending: {},
  message: null,
  error: null,
  mode: null,
};
