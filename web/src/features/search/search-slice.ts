/**
 * Search as you type: the dropdown's users and posts (seed 000 §2 "Search box", §5 "Search"). The
 * results page shows the same users and the posts list `searchPosts` of the posts feature.
 */
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import { errorMessage } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import type { Post, UserSummary } from '@/types/entities';
import { SEARCH_FALLBACK, searchApi } from './search-api';

export const MIN_SEARCH_LENGTH = 3;
export const SEARCH_DEBOUNCE_MS = 400;

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface SearchState {
  /** Dropdown results for `query`. */
  query: string;
  users: UserSummary[];
  posts: Post[];
  status: Status;
  error: string | null;
}

export const initialSearchState: SearchState = {
  query: '',
  users: [],
  posts: [],
  status: 'idle',
  error: null,
};

type State = { search: SearchState; auth: { isAuthenticated: boolean } };

function postsFor(isAuthenticated: boolean, query: string) {
  return isAuthenticated ? searchApi.posts(query) : searchApi.publicPosts(query);
}

/** Runs the post and user searches together; needs 3+ characters and skips the query just run. */
export const runSearch = createAsyncThunk<
  { query: string; users: UserSummary[]; posts: Post[] },
  string,
  { state: State; rejectValue: string }
>(
  'search/run',
  async (raw, { getState, rejectWithValue }) => {
    const query = raw.trim();
    const [posts, users] = await Promise.allSettled([postsFor(getState().auth.isAuthenticated, query), searchApi.users(query)]);
    if (posts.status === 'rejected' && users.status === 'rejected') {
      return rejectWithValue(errorMessage(posts.reason, SEARCH_FALLBACK.posts));
    }
    return {
      query,
      posts: posts.status === 'fulfilled' ? posts.value.posts : [],
      users: users.status === 'fulfilled' ? users.value : [],
    };
  },
  {
    condition: (raw, { getState }) => {
      const query = raw.trim();
      if (query.length < MIN_SEARCH_LENGTH) return false;
      const { search } = getState();
      return !(search.query === query && search.status !== 'failed');
    },
  },
);

const searchSlice = createSlice({
  name: 'search',
  initialState: initialSearchState,
  reducers: {
    searchCleared(state) {
      state.query = '';
      state.users = [];
      state.posts = [];
      state.status = 'idle';
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    builder
      // A signed-in search also finds the user's own drafts and private posts.
      .addCase(sessionUserChanged, () => initialSearchState)
      .addCase(runSearch.pending, (state, action) => {
        state.query = action.meta.arg.trim();
        state.status = 'loading';
        state.error = null;
      })
      .addCase(runSearch.fulfilled, (state, action) => {
        if (action.payload.query !== state.query) return;
        state.status = 'succeeded';
        state.users = action.payload.users;
        state.posts = action.payload.posts;
      })
      .addCase(runSearch.rejected, (state, action) => {
        if (action.meta.arg.trim() !== state.query) return;
        state.status = 'failed';
        state.users = [];
        state.posts = [];
        state.error = action.payload ?? SEARCH_FALLBACK.posts;
      });
  },
});

export const { searchCleared } = searchSlice.actions;
export const searchReducer = searchSlice.reducer;
export const selectSearch = (state: { search: SearchState }) => state.search;
