/** Feedback prompts and submission (seed 000 §3 "Feedback", §4 "Feedback"). */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import type { GetUserFeedbackCheckApiResponse, PostUserFeedbackSubmitApiResponse } from '@/api/endpoints';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import { socketEvents } from '@/features/socket';

export const FEEDBACK_FALLBACK = {
  check: 'Failed to check feedback prompt',
  submit: 'Failed to submit feedback',
} as const;
export const FEEDBACK_DEFAULT_TITLE = 'Share Your Feedback';
export const FEEDBACK_THANKS = 'Thank you for your feedback!';
export const FEEDBACK_THANKS_MS = 2000;

export interface FeedbackState {
  shouldPrompt: boolean;
  submitting: boolean;
  submitted: boolean;
  /** The server's prompt text, shown as the modal title; null means the default title. */
  promptMessage: string | null;
  error: string | null;
}

export const initialFeedbackState: FeedbackState = {
  shouldPrompt: false,
  submitting: false,
  submitted: false,
  promptMessage: null,
  error: null,
};

export const checkFeedbackPrompt = createAsyncThunk<boolean, void, { rejectValue: string }>(
  'feedback/check',
  async (_, { rejectWithValue }) => {
    try {
      const r = await http.get<GetUserFeedbackCheckApiResponse>('/user/feedback/check', FEEDBACK_FALLBACK.check);
      return Boolean(r?.shouldPrompt);
    } catch (e) {
      return rejectWithValue(errorMessage(e, FEEDBACK_FALLBACK.check));
    }
  },
);

export const submitFeedback = createAsyncThunk<boolean, { rating: number; message: string }, { rejectValue: string }>(
  'feedback/submit',
  async ({ rating, message }, { rejectWithValue }) => {
    if (!message.trim() || !Number.isInteger(rating) || rating < 1 || rating > 5) {
      return rejectWithValue(FEEDBACK_FALLBACK.submit);
    }
    try {
      const r = await http.post<PostUserFeedbackSubmitApiResponse>('/user/feedback/submit', { rating, message: message.trim() }, FEEDBACK_FALLBACK.submit);
      return r?.success ?? true;
    } catch (e) {
      return rejectWithValue(errorMessage(e, FEEDBACK_FALLBACK.submit));
    }
  },
);

const feedbackSlice = createSlice({
  name: 'feedback',
  initialState: initialFeedbackState,
  reducers: {
    /** Manual request (e.g. a "Give feedback" link). */
    feedbackRequested(state) {
      state.shouldPrompt = true;
      state.submitted = false;
      state.promptMessage = null;
      state.error = null;
    },
    feedbackClosed(state) {
      state.shouldPrompt = false;
      state.submitted = false;
      state.submitting = false;
      state.promptMessage = null;
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialFeedbackState)
      .addCase(socketEvents.feedbackPromptReceived, (state, action) => {
        state.shouldPrompt = true;
        state.submitted = false;
        state.promptMessage = action.payload;
        state.error = null;
      })
      // A check that answers (run when the app is idle after starting) only opens the prompt: a
      // reader who asked for it meanwhile ("Give feedback") or was prompted live keeps it open. A
      // failed check closes it (seed 000).
      .addCase(checkFeedbackPrompt.fulfilled, (state, action) => {
        if (action.payload) state.shouldPrompt = true;
      })
      .addCase(checkFeedbackPrompt.rejected, (state) => {
        state.shouldPrompt = false;
      })
      .addCase(submitFeedback.pending, (state) => {
        state.submitting = true;
        state.error = null;
      })
      .addCase(submitFeedback.fulfilled, (state) => {
        state.submitting = false;
        state.submitted = true;
      })
      .addCase(submitFeedback.rejected, (state, action) => {
        state.submitting = false;
        state.error = action.payload ?? FEEDBACK_FALLBACK.submit;
      });
  },
});

export const { feedbackRequested, feedbackClosed } = feedbackSlice.actions;
export const feedbackReducer = feedbackSlice.reducer;
export const selectFeedback = (state: { feedback: FeedbackState }) => state.feedback;
