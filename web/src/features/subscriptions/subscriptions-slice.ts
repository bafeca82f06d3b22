/**
 * Plans and subscriptions (seed 001 §3 "Subscriptions", §4 "Subscription"):
 * - Subscribe marks the plan as subscribed; Cancel sets the status cancelled and unsubscribed and
 *   forces a refetch of the subscribed plans; Refund sets the status refunded; Unsubscribe from an
 *   author removes that author's subscriptions.
 * - Deleting a plan removes it locally (my-plans keeps it, marked deleted); activating replaces
 *   or adds it.
 * - Every call that moves money is refused while the same one is in flight (`pending`), so a
 *   double click never charges or refunds twice; the server's claim and idempotency keys are the
 *   second guard.
 * The author's eligibility, a plan's analytics and the subscribers list are plain answers: the
 * money studio reads them through the generated endpoints.
 */
import { createAsyncThunk, createSlice, type UnknownAction } from '@reduxjs/toolkit';
import { injectReducers } from '@/app/store';
import { errorMessage } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import { storage, TOKEN_KEY } from '@/lib/storage';
import type { Plan, Subscription } from '@/types/money';
import {
  MISSING_PLAN_ID,
  MISSING_TOKEN,
  SUBSCRIPTION_FALLBACK,
  SUBSCRIPTION_MESSAGES,
  subscriptionsApi,
  type PlanInput,
  type StatusAnswer,
} from './subscriptions-api';

import { initialSubscriptionsState, type SubscriptionsState } from './subscriptions-state';

export { initialSubscriptionsState, type SubscriptionsState } from './subscriptions-state';

type Root = { subscriptions: SubscriptionsState; auth: { token?: string | null; user?: { _id: string } | null } };
const reject = (e: unknown, fallback: string) => errorMessage(e, fallback);
const RUNNING = new Set(['incomplete', 'active', 'past_due']);
/** The pending guard: a second identical money call while the first is in flight is dropped. */
const notPending = (key: string) => (_: unknown, { getState }: { getState: () => unknown }) => !(getState() as Root).subscriptions.pending[key];

export const fetchAuthorPlans = createAsyncThunk<{ plans: Plan[]; mode: string | null }, string, { rejectValue: string }>(
  'subscriptions/fetchAuthorPlans',
  async (authorId, { rejectWithValue }) => {
    try {
      const r = await subscriptionsApi.authorPlans(authorId);
      return { plans: r?.plans ?? [], mode: r?.mode ?? null };
    } catch (e) {
      return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.plans));
    }
  },
);

export const fetchSubscriptionStatus = createAsyncThunk<StatusAnswer, { userId: string; authorId: string }, { rejectValue: string }>(
  'subscriptions/fetchStatus',
  async ({ userId, authorId }, { rejectWithValue }) => {
    try {
      const r = await subscriptionsApi.status(userId, authorId);
      return { ...r, status: r.status ?? null };
    } catch (e) {
      return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.status));
    }
  },
);

export const fetchMySubscriptions = createAsyncThunk<Subscription[], { includeEnded?: boolean } | undefined, { rejectValue: string }>(
  'subscriptions/fetchMine',
  async (arg, { rejectWithValue }) => {
    try {
      return (await subscriptionsApi.mySubscriptions(Boolean(arg?.includeEnded)))?.plans ?? [];
    } catch (e) {
      return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.subscribed));
    }
  },
);

/** Seed 001 §5: a token (the signed-in user's or the stored jwt) and a plan id are required. */
export const subscribe = createAsyncThunk<{ subscription: Subscription; message: string; mode: string | null }, string, { state: Root; rejectValue: string }>(
  'subscriptions/subscribe',
  async (planId, { getState, rejectWithValue }) => {
    const token = getState().auth.token || storage.get(TOKEN_KEY);
    if (!token || token === 'null') return rejectWithValue(MISSING_TOKEN);
    if (!planId) return rejectWithValue(MISSING_PLAN_ID);
    try {
      const r = await subscriptionsApi.subscribe(planId);
      return { subscription: r.subscription, message: r.message || SUBSCRIPTION_MESSAGES.subscribed, mode: r.mode ?? null };
    } catch (e) {
      return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.subscribe));
    }
  },
  { condition: (planId, api) => notPending(`subscribe:${planId}`)(planId, api) },
);

export const cancelSubscription = createAsyncThunk<{ subscription: Subscription; message: string }, string, { state: Root; rejectValue: string }>(
  'subscriptions/cancel',
  async (id, { rejectWithValue }) => {
    try {
      const r = await subscriptionsApi.cancel(id);
      return { subscription: r.subscription, message: r.message || SUBSCRIPTION_MESSAGES.cancelled };
    } catch (e) {
      return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.cancel));
    }
  },
  { condition: (id, api) => notPending(`cancel:${id}`)(id, api) },
);

export const refundSubscription = createAsyncThunk<
  { subscription: Subscription; message: string },
  { id: string; reason: string; bankDetails: unknown },
  { state: Root; rejectValue: string }
>(
  'subscriptions/refund',
  async ({ id, reason, bankDetails }, { rejectWithValue }) => {
    try {
      const r = await subscriptionsApi.refund(id, reason, bankDetails);
      return { subscription: r.subscription, message: r.message || SUBSCRIPTION_MESSAGES.refunded };
    } catch (e) {
      return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.refund));
    }
  },
  { condition: (arg, api) => notPending(`refund:${arg.id}`)(arg, api) },
);

export const unsubscribeAuthor = createAsyncThunk<{ authorId: string; message: string }, { authorId: string; userId: string }, { state: Root; rejectValue: string }>(
  'subscriptions/unsubscribeAuthor',
  async ({ authorId, userId }, { rejectWithValue }) => {
    try {
      const r = await subscriptionsApi.unsubscribeAuthor(authorId, userId);
      return { authorId, message: r.message || SUBSCRIPTION_MESSAGES.unsubscribed };
    } catch (e) {
      return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.unsubscribe));
    }
  },
  { condition: (arg, api) => notPending(`unsubscribe:${arg.authorId}`)(arg, api) },
);

export const fetchMyPlans = createAsyncThunk<Plan[], void, { rejectValue: string }>('subscriptions/fetchMyPlans', async (_, { rejectWithValue }) => {
  try {
    return (await subscriptionsApi.myPlans())?.plans ?? [];
  } catch (e) {
    return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.plans));
  }
});

export const savePlan = createAsyncThunk<{ plan: Plan; message: string }, { planId?: string; input: PlanInput }, { state: Root; rejectValue: string }>(
  'subscriptions/savePlan',
  async ({ planId, input }, { rejectWithValue }) => {
    try {
      const r = planId ? await subscriptionsApi.updatePlan(planId, input) : await subscriptionsApi.createPlan(input);
      return { plan: r.plan, message: r.message || (planId ? 'Plan updated' : 'Plan created') };
    } catch (e) {
      return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.savePlan));
    }
  },
  { condition: (arg, api) => notPending(`plan:${arg.planId ?? 'new'}`)(arg, api) },
);

export const activatePlan = createAsyncThunk<{ plan: Plan; message: string }, string, { rejectValue: string }>('subscriptions/activatePlan', async (planId, { rejectWithValue }) => {
  try {
    const r = await subscriptionsApi.activatePlan(planId);
    return { plan: r.plan, message: r.message || 'Plan activated' };
  } catch (e) {
    return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.activatePlan));
  }
});

export const deactivatePlan = createAsyncThunk<{ plan: Plan; message: string }, string, { rejectValue: string }>('subscriptions/deactivatePlan', async (planId, { rejectWithValue }) => {
  try {
    const r = await subscriptionsApi.updatePlan(planId, { status: 'inactive' });
    return { plan: r.plan, message: r.message || 'Plan deactivated' };
  } catch (e) {
    return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.savePlan));
  }
});

export const deletePlan = createAsyncThunk<{ planId: string; plan: Plan | null; message: string }, string, { rejectValue: string }>('subscriptions/deletePlan', async (planId, { rejectWithValue }) => {
  try {
    const r = await subscriptionsApi.deletePlan(planId);
    return { planId, plan: r?.plan ?? null, message: r?.message || 'Plan deleted' };
  } catch (e) {
    return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.deletePlan));
  }
});

/** Administrators: remind readers whose subscriptions renew soon (once per period each). */
export const sendRenewalReminders = createAsyncThunk<{ message: string; sent: number; alreadySent: number; failed: number }, void, { state: Root; rejectValue: string }>(
  'subscriptions/sendRenewalReminders',
  async (_, { rejectWithValue }) => {
    try {
      const r = await subscriptionsApi.reminders();
      const sent = r?.sent ?? 0;
      const alreadySent = r?.alreadySent ?? 0;
      const failed = r?.failed ?? 0;
      return { message: r?.message || SUBSCRIPTION_MESSAGES.reminders, sent, alreadySent, failed };
    } catch (e) {
      return rejectWithValue(reject(e, SUBSCRIPTION_FALLBACK.reminders));
    }
  },
  { condition: (_, api) => notPending('reminders')(_, api) },
);

function replacePlan(list: Plan[], plan: Plan): Plan[] {
  const at = list.findIndex((p) => p._id === plan._id);
  if (at < 0) return [plan, ...list];
  const next = list.slice();
  next[at] = plan;
  return next;
}

function replaceSubscription(state: SubscriptionsState, sub: Subscription) {
  state.mySubscriptions.value = state.mySubscriptions.value.map((s) => (s._id === sub._id ? sub : s));
  if (state.authorStatus.value && state.authorStatus.value.subscriptionId === sub._id) {
    state.authorStatus.value = { ...state.authorStatus.value, status: sub.status, isSubscribed: RUNNING.has(sub.status) };
  }
}

const subscriptionsSlice = createSlice({
  name: 'subscriptions',
  initialState: initialSubscriptionsState,
  reducers: {
    subscriptionMessagesCleared(state) {
      state.message = null;
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialSubscriptionsState)
      .addCase(fetchAuthorPlans.pending, (state, action) => {
        state.authorPlans.status = 'loading';
        state.authorPlans.error = null;
        if (state.authorPlans.authorId !== action.meta.arg) state.authorPlans.value = [];
        state.authorPlans.authorId = action.meta.arg;
      })
      .addCase(fetchAuthorPlans.fulfilled, (state, action) => {
        state.authorPlans.status = 'succeeded';
        state.authorPlans.value = action.payload.plans;
        state.mode = action.payload.mode ?? state.mode;
      })
      .addCase(fetchAuthorPlans.rejected, (state, action) => {
        state.authorPlans.status = 'failed';
        state.authorPlans.error = action.payload ?? SUBSCRIPTION_FALLBACK.plans;
      })
      .addCase(fetchSubscriptionStatus.pending, (state) => {
        state.authorStatus.status = 'loading';
        state.authorStatus.error = null;
      })
      .addCase(fetchSubscriptionStatus.fulfilled, (state, action) => {
        state.authorStatus = { value: action.payload, status: 'succeeded', error: null };
      })
      .addCase(fetchSubscriptionStatus.rejected, (state, action) => {
        state.authorStatus.status = 'failed';
        state.authorStatus.error = action.payload ?? SUBSCRIPTION_FALLBACK.status;
      })
      .addCase(fetchMySubscriptions.pending, (state) => {
        state.mySubscriptions.status = 'loading';
        state.mySubscriptions.error = null;
      })
      .addCase(fetchMySubscriptions.fulfilled, (state, action) => {
        state.mySubscriptions = { value: action.payload, status: 'succeeded', error: null, stale: false };
        state.subscribedPlanIds = action.payload.filter((s) => RUNNING.has(s.status)).map((s) => s.planId);
      })
      .addCase(fetchMySubscriptions.rejected, (state, action) => {
        state.mySubscriptions.status = 'failed';
        state.mySubscriptions.error = action.payload ?? SUBSCRIPTION_FALLBACK.subscribed;
      })
      // Subscribe marks the plan as subscribed.
      .addCase(subscribe.pending, (state, action) => {
        state.pending[`subscribe:${action.meta.arg}`] = true;
        state.message = null;
        state.error = null;
      })
      .addCase(subscribe.fulfilled, (state, action) => {
        delete state.pending[`subscribe:${action.meta.arg}`];
        const sub = action.payload.subscription;
        state.message = action.payload.message;
        state.mode = action.payload.mode ?? state.mode;
        if (!state.subscribedPlanIds.includes(action.meta.arg)) state.subscribedPlanIds.push(action.meta.arg);
        if (sub) {
          state.authorStatus.value = { isSubscribed: true, status: sub.status, subscriptionId: sub._id };
          state.mySubscriptions.value = [sub, ...state.mySubscriptions.value.filter((s) => s._id !== sub._id)];
        }
      })
      .addCase(subscribe.rejected, (state, action) => {
        delete state.pending[`subscribe:${action.meta.arg}`];
        state.error = action.payload ?? SUBSCRIPTION_FALLBACK.subscribe;
      })
      // Cancel: status cancelled, unsubscribed, the subscribed plans are fetched again.
      .addCase(cancelSubscription.pending, (state, action) => {
        state.pending[`cancel:${action.meta.arg}`] = true;
        state.message = null;
        state.error = null;
      })
      .addCase(cancelSubscription.fulfilled, (state, action) => {
        delete state.pending[`cancel:${action.meta.arg}`];
        const sub = { ...action.payload.subscription, status: 'cancelled' };
        state.message = action.payload.message;
        replaceSubscription(state, sub);
        if (state.authorStatus.value?.subscriptionId === sub._id) state.authorStatus.value = { ...state.authorStatus.value, isSubscribed: false, status: 'cancelled' };
        state.subscribedPlanIds = state.subscribedPlanIds.filter((id) => id !== sub.planId);
        state.mySubscriptions.stale = true;
      })
      .addCase(cancelSubscription.rejected, (state, action) => {
        delete state.pending[`cancel:${action.meta.arg}`];
        state.error = action.payload ?? SUBSCRIPTION_FALLBACK.cancel;
      })
      // Refund: status refunded.
      .addCase(refundSubscription.pending, (state, action) => {
        state.pending[`refund:${action.meta.arg.id}`] = true;
        state.message = null;
        state.error = null;
      })
      .addCase(refundSubscription.fulfilled, (state, action) => {
        delete state.pending[`refund:${action.meta.arg.id}`];
        const sub = { ...action.payload.subscription, status: 'refunded', hasAccess: false };
        state.message = action.payload.message;
        replaceSubscription(state, sub);
        if (state.authorStatus.value?.subscriptionId === sub._id) state.authorStatus.value = { ...state.authorStatus.value, isSubscribed: false, status: 'refunded' };
        state.subscribedPlanIds = state.subscribedPlanIds.filter((id) => id !== sub.planId);
      })
      .addCase(refundSubscription.rejected, (state, action) => {
        delete state.pending[`refund:${action.meta.arg.id}`];
        state.error = action.payload ?? SUBSCRIPTION_FALLBACK.refund;
      })
      // Unsubscribe from an author removes that author's subscriptions.
      .addCase(unsubscribeAuthor.pending, (state, action) => {
        state.pending[`unsubscribe:${action.meta.arg.authorId}`] = true;
        state.message = null;
        state.error = null;
      })
      .addCase(unsubscribeAuthor.fulfilled, (state, action) => {
        delete state.pending[`unsubscribe:${action.meta.arg.authorId}`];
        const { authorId } = action.payload;
        state.message = action.payload.message;
        const removed = new Set(state.mySubscriptions.value.filter((s) => s.authorId === authorId).map((s) => s.planId));
        state.mySubscriptions.value = state.mySubscriptions.value.filter((s) => s.authorId !== authorId);
        state.subscribedPlanIds = state.subscribedPlanIds.filter((id) => !removed.has(id) && !state.authorPlans.value.some((p) => p._id === id && p.authorId === authorId));
        if (state.authorPlans.authorId === authorId && state.authorStatus.value) state.authorStatus.value = { ...state.authorStatus.value, isSubscribed: false, status: 'cancelled' };
      })
      .addCase(unsubscribeAuthor.rejected, (state, action) => {
        delete state.pending[`unsubscribe:${action.meta.arg.authorId}`];
        state.error = action.payload ?? SUBSCRIPTION_FALLBACK.unsubscribe;
      })
      .addCase(fetchMyPlans.pending, (state) => {
        state.myPlans.status = 'loading';
        state.myPlans.error = null;
      })
      .addCase(fetchMyPlans.fulfilled, (state, action) => {
        state.myPlans = { value: action.payload, status: 'succeeded', error: null };
      })
      .addCase(fetchMyPlans.rejected, (state, action) => {
        state.myPlans.status = 'failed';
        state.myPlans.error = action.payload ?? SUBSCRIPTION_FALLBACK.plans;
      })
      .addCase(savePlan.pending, (state, action) => {
        state.pending[`plan:${action.meta.arg.planId ?? 'new'}`] = true;
        state.message = null;
        state.error = null;
      })
      .addCase(savePlan.fulfilled, (state, action) => {
        delete state.pending[`plan:${action.meta.arg.planId ?? 'new'}`];
        state.message = action.payload.message;
        state.myPlans.value = replacePlan(state.myPlans.value, action.payload.plan);
      })
      .addCase(savePlan.rejected, (state, action) => {
        delete state.pending[`plan:${action.meta.arg.planId ?? 'new'}`];
        state.error = action.payload ?? SUBSCRIPTION_FALLBACK.savePlan;
      })
      // Activating a plan replaces or adds it.
      .addCase(activatePlan.fulfilled, (state, action) => {
        state.message = action.payload.message;
        state.error = null;
        state.myPlans.value = replacePlan(state.myPlans.value, action.payload.plan);
        if (state.authorPlans.authorId === action.payload.plan.authorId) state.authorPlans.value = replacePlan(state.authorPlans.value, action.payload.plan);
      })
      .addCase(deactivatePlan.fulfilled, (state, action) => {
        state.message = action.payload.message;
        state.error = null;
        state.myPlans.value = replacePlan(state.myPlans.value, action.payload.plan);
        state.authorPlans.value = state.authorPlans.value.filter((p) => p._id !== action.payload.plan._id);
      })
      // Deleting a plan removes it locally; my-plans includes deleted plans, so it stays there, marked.
      .addCase(deletePlan.fulfilled, (state, action) => {
        const { planId, plan } = action.payload;
        state.message = action.payload.message;
        state.error = null;
        state.authorPlans.value = state.authorPlans.value.filter((p) => p._id !== planId);
        state.myPlans.value = state.myPlans.value.map((p) => (p._id === planId ? (plan ?? { ...p, isDeleted: true, status: 'inactive' }) : p));
      })
      .addCase(sendRenewalReminders.pending, (state) => {
        state.pending.reminders = true;
        state.message = null;
        state.error = null;
      })
      .addCase(sendRenewalReminders.fulfilled, (state, action) => {
        delete state.pending.reminders;
        const { message, sent, alreadySent, failed } = action.payload;
        state.message = `${message}: ${sent} sent, ${alreadySent} already reminded this period, ${failed} failed.`;
      })
      .addCase(sendRenewalReminders.rejected, (state, action) => {
        delete state.pending.reminders;
        state.error = action.payload ?? SUBSCRIPTION_FALLBACK.reminders;
      })
      .addMatcher(
        (action: UnknownAction) => [activatePlan.rejected.type, deactivatePlan.rejected.type, deletePlan.rejected.type].includes(action.type),
        (state, action: { payload?: string }) => {
          state.error = action.payload ?? SUBSCRIPTION_FALLBACK.savePlan;
        },
      );
  },
});

export const { subscriptionMessagesCleared } = subscriptionsSlice.actions;
export const subscriptionsReducer = subscriptionsSlice.reducer;
// Loaded on demand (plans, subscriptions and the money studio are not a reader's first load): the
// slice joins the store when this module loads.
injectReducers({ subscriptions: subscriptionsReducer });
export const selectSubscriptions = (state: { subscriptions: SubscriptionsState }) => state.subscriptions;
