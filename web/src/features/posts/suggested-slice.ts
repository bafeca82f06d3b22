/** Suggested posts (seed 001 §3 "Suggested posts"): a list with status idle, loading, succeeded or failed. */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import type { GetPostSuggestedPostSuggestedApiResponse } from '@/api/endpoints';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import type { Post } from '@/types/entities';
import { deletePost } from './posts-slice';

export const SUGGESTED_LIMIT = 4;
export const SUGGESTED_FALLBACK = 'Failed to fetch suggested posts';

export interface SuggestedState {
  posts: Post[];
  /** The post they were suggested for. */
  forPost: string | null;
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  error: string | null;
  requestId: string | null;
}

export const initialSuggestedState: SuggestedState = { posts: [], forPost: null, status: 'idle', error: null, requestId: null };

/** Up to 4 posts of the same category, this one excluded. */
export const fetchSuggestedPosts = createAsyncThunk<Post[], { postId: string; category?: string | null; limit?: number }, { rejectValue: string }>(
  'suggested/fetch',
  async ({ postId, category, limit = SUGGESTED_LIMIT }, { rejectWithValue }) => {
    try {
      const r = await http.get<GetPostSuggestedPostSuggestedApiResponse>('/post/suggested-post/suggested', SUGGESTED_FALLBACK, {
        limit,
        category: category ?? undefined,
        exclude: postId,
      });
      return (r?.posts ?? []).filter((p) => p._id !== postId).slice(0, limit);
    } catch (e) {
      return rejectWithValue(errorMessage(e, SUGGESTED_FALLBACK));
    }
  },
);

const suggestedSlice = createSlice({
  name: 'suggested',
  initialState: initialSuggestedState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialSuggestedState)
      .addCase(fetchSuggestedPosts.pending, (state, action) => {
        state.status = 'loading';
        state.error = null;
        state.requestId = action.meta.requestId;
        if (state.forPost !== action.meta.arg.postId) state.posts = [];
        state.forPost = action.meta.arg.postId;
      })
      .addCase(fetchSuggestedPosts.fulfilled, (state, action) => {
        if (state.requestId !== action.meta.requestId) return;
        state.status = 'succeeded';
        state.posts = action.payload;
        state.requestId = null;
      })
      .addCase(fetchSuggestedPosts.rejected, (state, action) => {
        if (state.requestId !== action.meta.requestId) return;
        state.status = 'failed';
        state.error = action.payload ?? SUGGESTED_FALLBACK;
        state.requestId = null;
      })
      .addCase(deletePost.fulfilled, (state, action) => {
        state.posts = state.posts.filter((p) => p._id !== action.payload);
      });
  },
});

export const suggestedReducer = suggestedSlice.reducer;
export const selectSuggested = (state: { suggested: SuggestedState }) => state.suggested;
