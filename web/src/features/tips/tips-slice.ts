/**
 * The support card's state: each post's draft (what the reader chose and typed, mirrored in
 * sessionStorage by tip-draft.ts) and its send; and the tips that reached the writer live.
 * - Sending is refused while the same post's send is in flight, so a double click on Pay makes
 *   one request; the Idempotency-Key (kept with the draft) is the server's second guard.
 * - A retry of the same tip sends the same key again; an answer that says the tip was not made
 *   (a 4xx other than 408 and 429) drops the key, so a corrected tip is a new attempt.
 * - Once the tip went through (201, 202 or 200 for the same tip), the draft is cleared.
 * Lists (tips received, tips sent, supporters, settings) are plain answers read through the
 * generated endpoints.
 */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { injectReducers } from '@/app/store';
import { socketEvents, type TipReceived } from '@/features/socket';
import { errorMessage, errorStatus } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import { attemptFor, clearTipDraft, emptyTipDraft, readTipDraft, writeTipDraft, type TipDraft } from './tip-draft';
import { TIP_FALLBACK, TIP_MESSAGES, tipsApi, type Tip } from './tips-api';

export interface TipSend {
  status: 'idle' | 'sending' | 'succeeded' | 'failed';
  error: string | null;
  /** The server's thanks (or that the payment is being confirmed). */
  message: string | null;
  tip: Tip | null;
  /** The payment still has to be confirmed (202). */
  confirming: boolean;
}

export interface TipsState {
  /** Per post: what the reader chose and typed. */
  drafts: Record<string, TipDraft>;
  /** Per post: the send in progress or its outcome. */
  sends: Record<string, TipSend>;
  /** Tips to the signed-in writer's posts that arrived live, newest first (at most RECEIVED_CAP). */
  received: TipReceived[];
}

export const RECEIVED_CAP = 20;
export const initialTipsState: TipsState = { drafts: {}, sends: {}, received: [] };
const idleSend: TipSend = { status: 'idle', error: null, message: null, tip: null, confirming: false };

type Root = { tips: TipsState; auth: { user?: { _id: string } | null } };

/** Statuses after which the server made no tip: the next try is a new attempt (a new key). */
function notMade(status: number | null): boolean {
  return status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** Brings back the reader's draft for a post (after a reload) unless one is already open. */
export const openTipDraft = createAsyncThunk<TipDraft | null, string, { state: Root }>('tips/openDraft', (postId, { getState }) => {
  const { auth, tips } = getState();
  if (tips.drafts[postId] || !auth.user) return null;
  return readTipDraft(auth.user._id, postId);
});

/** The reader changed the amount, message or public switch: kept in the store and the tab. */
export const editTipDraft = createAsyncThunk<void, { postId: string; changes: Partial<Omit<TipDraft, 'attempt'>> }, { state: Root }>(
  'tips/editDraft',
  ({ postId, changes }, { dispatch, getState }) => {
    dispatch(tipDraftEdited({ postId, changes }));
    const { auth, tips } = getState();
    if (auth.user) writeTipDraft(auth.user._id, postId, tips.drafts[postId]);
  },
);

export const sendTip = createAsyncThunk<
  { tip: Tip; message: string; confirming: boolean },
  { postId: string; amount: number; currency: string },
  { state: Root; rejectValue: string }
>(
  'tips/send',
  async ({ postId, amount, currency }, { dispatch, getState, rejectWithValue }) => {
    const userId = getState().auth.user?._id;
    if (!userId) return rejectWithValue('Log in to support this post.');
    const draft = getState().tips.drafts[postId] ?? emptyTipDraft();
    const message = draft.message.trim();
    const attempt = attemptFor(draft.attempt, { amount, currency, message, public: draft.public });
    dispatch(tipAttemptStarted({ postId, attempt }));
    writeTipDraft(userId, postId, getState().tips.drafts[postId]);
    try {
      const answer = await tipsApi.send({ postId, amount, currency, message: message || null, public: attempt.public }, attempt.key);
      clearTipDraft(userId, postId);
      const confirming = answer.tip.status === 'pending' || Boolean(answer.payment?.clientSecret);
      return { tip: answer.tip, message: confirming ? TIP_MESSAGES.confirming : answer.message || TIP_MESSAGES.thanks, confirming };
    } catch (e) {
      if (notMade(errorStatus(e))) {
        dispatch(tipAttemptDropped(postId));
        const current = getState().tips.drafts[postId];
        if (current) writeTipDraft(userId, postId, current);
      }
      return rejectWithValue(errorMessage(e, TIP_FALLBACK.send));
    }
  },
  { condition: ({ postId }, { getState }) => getState().tips.sends[postId]?.status !== 'sending' },
);

const tipsSlice = createSlice({
  name: 'tips',
  initialState: initialTipsState,
  reducers: {
    tipDraftEdited(state, action: PayloadAction<{ postId: string; changes: Partial<Omit<TipDraft, 'attempt'>> }>) {
      const { postId, changes } = action.payload;
      state.drafts[postId] = { ...(state.drafts[postId] ?? emptyTipDraft()), ...changes };
      const send = state.sends[postId];
      if (send && send.status === 'failed') state.sends[postId] = { ...send, error: null };
    },
    tipAttemptStarted(state, action: PayloadAction<{ postId: string; attempt: TipDraft['attempt'] }>) {
      const { postId, attempt } = action.payload;
      state.drafts[postId] = { ...(state.drafts[postId] ?? emptyTipDraft()), attempt };
    },
    tipAttemptDropped(state, action: PayloadAction<string>) {
      const draft = state.drafts[action.payload];
      if (draft) draft.attempt = null;
    },
    /** "Send another tip": the card is a fresh form again. */
    tipFormReset(state, action: PayloadAction<string>) {
      delete state.sends[action.payload];
      state.drafts[action.payload] = emptyTipDraft();
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialTipsState)
      .addCase(openTipDraft.fulfilled, (state, action) => {
        if (!state.drafts[action.meta.arg]) state.drafts[action.meta.arg] = action.payload ?? emptyTipDraft();
      })
      .addCase(sendTip.pending, (state, action) => {
        state.sends[action.meta.arg.postId] = { ...idleSend, status: 'sending' };
      })
      .addCase(sendTip.fulfilled, (state, action) => {
        const { postId } = action.meta.arg;
        state.sends[postId] = { status: 'succeeded', error: null, message: action.payload.message, tip: action.payload.tip, confirming: action.payload.confirming };
        state.drafts[postId] = emptyTipDraft();
      })
      .addCase(sendTip.rejected, (state, action) => {
        state.sends[action.meta.arg.postId] = { ...idleSend, status: 'failed', error: action.payload ?? TIP_FALLBACK.send };
      })
      .addCase(socketEvents.tipReceived, (state, action) => {
        state.received = [action.payload, ...state.received.filter((t) => t.tipId !== action.payload.tipId)].slice(0, RECEIVED_CAP);
      });
  },
});

export const { tipDraftEdited, tipAttemptStarted, tipAttemptDropped, tipFormReset } = tipsSlice.actions;
export const tipsReducer = tipsSlice.reducer;
// Loaded with the support card and the tips screens (never a reader's first load).
injectReducers({ tips: tipsReducer });

const EMPTY_DRAFT = emptyTipDraft();
const NO_TIPS: TipReceived[] = [];
export const selectTipDraft = (state: { tips?: TipsState }, postId: string): TipDraft => state.tips?.drafts[postId] ?? EMPTY_DRAFT;
export const selectTipSend = (state: { tips?: TipsState }, postId: string): TipSend => state.tips?.sends[postId] ?? idleSend;
/** The tips that arrived live (the writer's lists fetch again when it changes). */
export const selectTipsReceivedLive = (state: { tips?: TipsState }) => state.tips?.received ?? NO_TIPS;
