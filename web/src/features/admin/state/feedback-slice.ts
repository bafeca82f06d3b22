/** The readers' feedback (notices section) and the prompt that asks one user for it. */
import { createSlice } from '@reduxjs/toolkit';
import { ADMIN_FALLBACK, adminApi } from '../admin-api';
import type { Feedback } from '../admin-types';
import { emptyList, failed, loaded, loading, pageFrom, sectionThunk, type Page, type PagedList } from './paged-list';

export interface FeedbackState {
  feedbacks: PagedList<Feedback>;
}

export const initialFeedbackState = (): FeedbackState => ({ feedbacks: emptyList() });

const thunk = sectionThunk<FeedbackState>();

export const fetchFeedbacks = thunk<Page<Feedback>, number | void>('fetchFeedbacks', ADMIN_FALLBACK.feedbacks, async (page, { getState }) => {
  const p = page ?? getState().admin.feedbacks.page;
  const r = await adminApi.feedbacks({ page: p });
  return pageFrom(r?.feedbacks, r?.total, r, p);
});

export const sendFeedbackPrompt = thunk<string, { userId: string; message: string }>('sendFeedbackPrompt', ADMIN_FALLBACK.feedbackPrompt, async ({ userId, message }) => {
  const r = await adminApi.feedbackPrompt(userId, message);
  return r?.message ?? 'Feedback prompt sent';
});

export const feedbackSlice = createSlice({
  name: 'admin',
  initialState: initialFeedbackState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(fetchFeedbacks.pending, (state) => loading(state.feedbacks))
      .addCase(fetchFeedbacks.fulfilled, (state, action) => loaded(state.feedbacks, action.payload))
      .addCase(fetchFeedbacks.rejected, (state, action) => failed(state.feedbacks, action.payload, ADMIN_FALLBACK.feedbacks));
  },
});
