/** Search as you type (dropdown) and the full results page (seed 000 §2 "Search box", §5 "Search"). */
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
  /** Full results page. */
  results: {
    query: string;
    posts: Post[];
    total: number;
    page: number;
    status: Status;
    error: string | null;
    /** The request the page waits for; answers to older queries are dropped. */
    requestId?: string | null;
  };
}

export const initialSearchState: SearchState = {
  query: '',
  users: [],
  posts: [],
  status: 'idle',
  error: null,
  results: { query: '', posts: [], total: 0, page: 1, status: 'idle', error: null },
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

/** The /search page: page 1 replaces, later pages append without duplicates. */
export const searchPosts = createAsyncThunk<
  { query: string; posts: Post[]; total: number; page: number },
  { query: string; page?: number },
  { state: State; rejectValue: string }
>('search/posts', async ({ query, page = 1 }, { getState, rejectWithValue }) => {
  const q = query.trim();
  try {
    const state = getState();
    let result;
    if (state.auth.isAuthenticated) {
      const last = page > 1 ? state.search.results.posts[state.search.results.posts.length - 1] : undefined;
      result = await searchApi.posts(q, last?.createdAt);
    } else {
      result = await searchApi.publicPosts(q, page);
    }
    return { query: q, posts: result.posts, total: result.total, page };
  } catch (e) {
    return rejectWithValue(errorMessage(e, SEARCH_FALLBACK.posts));
  }
});

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
      })
      .addCase(searchPosts.pending, (state, action) => {
        state.results.requestId = action.meta.requestId;
        state.results.status = 'loading';
        state.results.error = null;
        if ((action.meta.arg.page ?? 1) <= 1) {
          state.results.query = action.meta.arg.query.trim();
          state.results.posts = [];
        }
      })
      .addCase(searchPosts.fulfilled, (state, action) => {
        if (state.results.requestId !== action.meta.requestId) return;
        state.results.requestId = null;
        const { posts, total, page, query } = action.payload;
        state.results.status = 'succeeded';
        state.results.query = query;
        state.results.total = total;
        state.results.page = page;
        const seen = new Set(state.results.posts.map((p) => p._id));
        state.results.posts = page <= 1 ? posts : [...state.results.posts, ...posts.filter((p) => !seen.has(p._id))];
      })
      .addCase(searchPosts.rejected, (state, action) => {
        if (state.results.requestId !== action.meta.requestId) return;
        state.results.requestId = null;
        state.results.status = 'failed';
        state.results.error = action.payload ?? SEARCH_FALLBACK.posts;
      });
  },
});

export const { searchCleared } = searchSlice.actions;
export const searchReducer = searchSlice.reducer;
export const selectSearch = (state: { search: SearchState }) => state.search;
