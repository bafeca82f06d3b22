/**
 * The money section: authors' earnings and bulk payouts, plans (status toggles between active
 * and inactive) and the eligibility criteria in force.
 */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import type { GetSubscriptionCheckEligibilityApiResponse } from '@/api/endpoints';
import { ApiError, errorMessage, http } from '@/lib/http';
import { ADMIN_FALLBACK, adminApi } from '../admin-api';
import type { PayoutResult, Plan, Status, SubscriptionCriteria, UserEarning } from '../admin-types';
import { emptyList, failed, idleAction, loaded, loading, pageFrom, sectionThunk, type ActionResult, type Page, type PagedList } from './paged-list';

/** Default eligibility criteria of the administrators' area (seed 001 §9). */
export const ADMIN_DEFAULT_CRITERIA: SubscriptionCriteria = { minFollowers: 10000, minPosts: 30, minEngagementRate: 0.05, minAccountAgeDays: 30 };

export interface MoneyState {
  userEarnings: PagedList<UserEarning> & { minPayout: number | null; payout: ActionResult<PayoutResult> };
  plans: PagedList<Plan>;
  subscriptionCriteria: { value: SubscriptionCriteria | null; status: Status; error: string | null; message: string | null };
}

export const initialMoneyState = (): MoneyState => ({
  userEarnings: { ...emptyList<UserEarning>(), minPayout: null, payout: idleAction() },
  plans: emptyList(),
  subscriptionCriteria: { value: null, status: 'idle', error: null, message: null },
});

const thunk = sectionThunk<MoneyState>();

export const fetchUserEarnings = thunk<Page<UserEarning> & { minPayout: number | null }, number | void>('fetchUserEarnings', ADMIN_FALLBACK.fetchEarnings, async (page, { getState }) => {
  const p = page ?? getState().admin.userEarnings.page;
  const r = await adminApi.earnings({ page: p });
  return { ...pageFrom(r?.userEarnings, r?.total, r, p), minPayout: typeof r?.minPayout === 'number' ? r.minPayout : null };
});

/** Bulk payouts; a second request while one is in flight is dropped (a double click pays once). */
export const processPayouts = createAsyncThunk<{ message: string; results: PayoutResult[] }, string[], { rejectValue: string; state: { admin: MoneyState } }>(
  'admin/processPayouts',
  async (users, { rejectWithValue }) => {
    try {
      const r = await adminApi.payouts(users);
      return { message: r?.message ?? 'Payouts processed', results: r?.results ?? [] };
    } catch (e) {
      return rejectWithValue(errorMessage(e, ADMIN_FALLBACK.payouts));
    }
  },
  { condition: (_, { getState }) => getState().admin.userEarnings.payout.status !== 'loading' },
);

export const fetchPlans = thunk<Page<Plan>, number | void>('fetchPlans', ADMIN_FALLBACK.fetchPlans, async (page, { getState }) => {
  const p = page ?? getState().admin.plans.page;
  const r = await adminApi.plans({ page: p, includeDeleted: true });
  return pageFrom(r?.plans, r?.total, r, p);
});

/** Plan status toggles between active and inactive. */
export const togglePlanStatus = thunk<{ planId: string; status: Plan['status']; plan: Plan | null; message: string }, { planId: string; status: string }>(
  'togglePlanStatus',
  ADMIN_FALLBACK.togglePlanStatus,
  async ({ planId, status }) => {
    const next: Plan['status'] = status === 'active' ? 'inactive' : 'active';
    const r = await adminApi.setPlanStatus(planId, next);
    return { planId, status: r?.plan?.status ?? next, plan: r?.plan ?? null, message: r?.message ?? '' };
  },
);

/**
 * The criteria in force, read from the administrator's own eligibility check. When the server
 * has none ('Subscription configuration not found'), the administrators' defaults apply.
 */
export const fetchCriteria = thunk<{ criteria: SubscriptionCriteria; message: string | null }, void>('fetchCriteria', ADMIN_FALLBACK.checkEligibility, async () => {
  try {
    const r = await http.get<GetSubscriptionCheckEligibilityApiResponse>('/subscription/check-eligibility', ADMIN_FALLBACK.checkEligibility);
    return { criteria: r?.criteria ?? ADMIN_DEFAULT_CRITERIA, message: null };
  } catch (e) {
    if (e instanceof ApiError && /Subscription configuration not found/i.test(e.message)) {
      return { criteria: ADMIN_DEFAULT_CRITERIA, message: 'Subscription configuration not found, using default criteria' };
    }
    throw e;
  }
});

export const updateCriteria = thunk<{ criteria: SubscriptionCriteria; message: string }, SubscriptionCriteria>('updateCriteria', ADMIN_FALLBACK.updateCriteria, async (criteria) => {
  const r = await adminApi.updateCriteria(criteria);
  return { criteria: r?.criteria ?? criteria, message: r?.message ?? 'Criteria updated' };
});

export const moneySlice = createSlice({
  name: 'admin',
  initialState: initialMoneyState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(fetchUserEarnings.pending, (state) => loading(state.userEarnings))
      .addCase(fetchUserEarnings.fulfilled, (state, action) => {
        loaded(state.userEarnings, action.payload);
        state.userEarnings.minPayout = action.payload.minPayout;
      })
      .addCase(fetchUserEarnings.rejected, (state, action) => failed(state.userEarnings, action.payload, ADMIN_FALLBACK.fetchEarnings))
      .addCase(processPayouts.pending, (state) => {
        state.userEarnings.payout = { status: 'loading', message: null, error: null, results: [] };
      })
      .addCase(processPayouts.fulfilled, (state, action) => {
        state.userEarnings.payout = { status: 'succeeded', message: action.payload.message, error: null, results: action.payload.results };
      })
      .addCase(processPayouts.rejected, (state, action) => {
        state.userEarnings.payout = { status: 'failed', message: null, error: action.payload ?? ADMIN_FALLBACK.payouts, results: [] };
      })
      .addCase(fetchPlans.pending, (state) => loading(state.plans))
      .addCase(fetchPlans.fulfilled, (state, action) => loaded(state.plans, action.payload))
      .addCase(fetchPlans.rejected, (state, action) => failed(state.plans, action.payload, ADMIN_FALLBACK.fetchPlans))
      .addCase(togglePlanStatus.fulfilled, (state, action) => {
        const plan = state.plans.items.find((p) => p._id === action.payload.planId);
        if (plan) plan.status = action.payload.status;
      })
      .addCase(fetchCriteria.pending, (state) => loading(state.subscriptionCriteria))
      .addCase(fetchCriteria.fulfilled, (state, action) => {
        state.subscriptionCriteria = { value: action.payload.criteria, status: 'succeeded', error: null, message: action.payload.message };
      })
      .addCase(fetchCriteria.rejected, (state, action) => failed(state.subscriptionCriteria, action.payload, ADMIN_FALLBACK.checkEligibility))
      .addCase(updateCriteria.pending, (state) => {
        state.subscriptionCriteria.status = 'loading';
        state.subscriptionCriteria.error = null;
        state.subscriptionCriteria.message = null;
      })
      .addCase(updateCriteria.fulfilled, (state, action) => {
        state.subscriptionCriteria = { value: action.payload.criteria, status: 'succeeded', error: null, message: action.payload.message };
      })
      .addCase(updateCriteria.rejected, (state, action) => failed(state.subscriptionCriteria, action.payload, ADMIN_FALLBACK.updateCriteria));
  },
});
