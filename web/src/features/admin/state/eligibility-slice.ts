/**
 * One author's subscription eligibility as the users section checks and changes it: the
 * assessment, the override switches and the milestone override (clearing it sets all four
 * thresholds to null, seed 001 §4).
 */
import { createSlice } from '@reduxjs/toolkit';
import { ADMIN_FALLBACK, adminApi, type EligibilityChange } from '../admin-api';
import type { MilestoneOverride, OverrideInfo, Status, UserEligibility } from '../admin-types';
import { failed, sectionThunk } from './paged-list';

export const EMPTY_MILESTONES: MilestoneOverride = { followerCount: null, postCount: null, engagementRate: null, accountAgeDays: null };

export interface EligibilityState {
  userEligibility: { userId: string | null; value: UserEligibility | null; status: Status; error: string | null; message: string | null };
  overrideInfo: OverrideInfo | null;
}

export const initialEligibilityState = (): EligibilityState => ({
  userEligibility: { userId: null, value: null, status: 'idle', error: null, message: null },
  overrideInfo: null,
});

const thunk = sectionThunk<EligibilityState>();

export const checkUserEligibility = thunk<UserEligibility & { userId: string }, string>(
  'checkUserEligibility',
  ADMIN_FALLBACK.checkEligibility,
  async (userId) => ({ ...(await adminApi.checkEligibility(userId)), userId }),
);

export type Change = EligibilityChange & { userId: string };

export const toggleUserEligibility = thunk<Change, { userId: string; enable: boolean }>(
  'toggleUserEligibility',
  ADMIN_FALLBACK.toggleEligibility,
  async ({ userId, enable }) => ({ ...(await adminApi.toggleEligibility(userId, enable)), userId }),
);

export const grantSubscriptionAccess = thunk<Change, { userId: string; grant: boolean }>(
  'grantSubscriptionAccess',
  ADMIN_FALLBACK.grantAccess,
  async ({ userId, grant }) => ({ ...(await adminApi.grant(userId, grant)), userId }),
);

export const updateUserOverride = thunk<Change, { userId: string; isEligibleForSubscription?: boolean; bypassSubscriptionCriteria?: boolean }>(
  'updateUserOverride',
  ADMIN_FALLBACK.userOverride,
  async ({ userId, ...body }) => ({ ...(await adminApi.userOverride(userId, body)), userId }),
);

export const overrideMilestones = thunk<Change, { userId: string; values: Partial<MilestoneOverride> }>(
  'overrideMilestones',
  ADMIN_FALLBACK.milestones,
  async ({ userId, values }) => ({ ...(await adminApi.milestones(userId, values)), userId }),
);

export const resetMilestones = thunk<Change, string>('resetMilestones', ADMIN_FALLBACK.resetMilestones, async (userId) => ({
  ...(await adminApi.resetMilestones(userId)),
  userId,
}));

/** The actions that answer with an eligibility change. */
export const ELIGIBILITY_CHANGES = [toggleUserEligibility, grantSubscriptionAccess, updateUserOverride, overrideMilestones, resetMilestones] as const;

/** An eligibility answer: the assessment and the switches. */
function applyEligibility(state: EligibilityState, change: Change) {
  const info = change.overrideInfo ?? change.eligibility?.overrideInfo ?? null;
  if (change.eligibility) state.userEligibility.value = { ...change.eligibility, userId: change.userId };
  state.userEligibility.userId = change.userId;
  state.userEligibility.status = 'succeeded';
  state.userEligibility.error = null;
  state.userEligibility.message = change.message ?? null;
  if (info) state.overrideInfo = info;
}

export const eligibilitySlice = createSlice({
  name: 'admin',
  initialState: initialEligibilityState,
  reducers: {
    /** Clearing a milestone override sets all four thresholds to null (locally, before the answer). */
    milestonesCleared(state) {
      if (state.overrideInfo) state.overrideInfo.milestoneOverride = { ...EMPTY_MILESTONES };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(checkUserEligibility.pending, (state, action) => {
        state.userEligibility = { userId: action.meta.arg, value: null, status: 'loading', error: null, message: null };
      })
      .addCase(checkUserEligibility.fulfilled, (state, action) => {
        state.userEligibility = { userId: action.payload.userId, value: action.payload, status: 'succeeded', error: null, message: null };
        state.overrideInfo = action.payload.overrideInfo ?? null;
      })
      .addCase(checkUserEligibility.rejected, (state, action) => failed(state.userEligibility, action.payload, ADMIN_FALLBACK.checkEligibility))
      .addCase(resetMilestones.pending, (state) => {
        if (state.overrideInfo) state.overrideInfo.milestoneOverride = { ...EMPTY_MILESTONES };
      });
    for (const change of ELIGIBILITY_CHANGES) {
      builder.addCase(change.fulfilled, (state, action) => applyEligibility(state, action.payload));
      builder.addCase(change.rejected, (state, action) => {
        state.userEligibility.error = action.payload ?? ADMIN_FALLBACK.checkEligibility;
        state.userEligibility.message = null;
      });
    }
  },
});

export const { milestonesCleared } = eligibilitySlice.actions;
