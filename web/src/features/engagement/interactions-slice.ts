/**
 * Post interaction state (seed 001 §3 "Post interaction state", §4 "Other", §7 "Engagement"):
 * per post likes, bookmarks, shares and time spent; views per slug; polls keyed by postId and
 * blockId; the bookmarked posts. Like and bookmark are optimistic and rolled back on failure.
 */
import { createAsyncThunk, createSelector, createSlice } from '@reduxjs/toolkit';
import type {
  GetPostBookmarkStatusByPostIdApiResponse,
  GetPostGetPostBookmarksApiResponse,
  PostPostBookmarkByPostIdApiResponse,
  PostPostByPostIdShareApiResponse,
  PostPostLikeByPostIdApiResponse,
  PostPostViewBySlugApiResponse,
  PostPostVoteApiResponse,
  PostPublicPostBySlugViewApiResponse,
} from '@/api/endpoints';
import type { Schemas } from '@/api';
import { errorMessage, http } from '@/lib/http';
import { sessionUserChanged } from '@/lib/session';
import { GUEST_ID_KEY, storage } from '@/lib/storage';
import type { Block, Post } from '@/types/entities';
import { deletePost, fetchPost, submitReadingTime } from '@/features/posts';
import { queueToggleIfUnreachable } from '@/features/offline/lazy';

export const ENGAGEMENT_FALLBACK = {
  like: 'Like failed',
  bookmark: 'Bookmark failed',
  view: 'View count failed',
  guestView: 'Failed to track view',
  bookmarks: 'Failed to fetch bookmarked posts',
  timeSpent: 'Time tracking failed',
  status: 'Failed to fetch status',
  share: 'Failed to increment share count',
  vote: 'Vote failed',
} as const;

export interface PollOption {
  text: string;
  votes: number;
}

/** A poll block with its counts and the reader's choice (the vote response's `poll`). */
export interface Poll {
  postId: string;
  blockId: string;
  question: string;
  options: PollOption[];
  multiple: boolean;
  closesAt: string | null;
  closed: boolean;
  totalVotes: number;
  /** The reader's option (single choice), or null. */
  userVote: number | null;
  /** The reader's options (multiple choice). */
  userVotes: number[];
  voting: boolean;
  error: string | null;
}

export interface PostInteraction {
  likes: { likesCount: number; liked: boolean };
  bookmarks: { bookmarksCount: number; bookmarked: boolean };
  shares: { shareCount: number };
  timeSpent: { duration: number; updatedAt: string | null };
  /** Whether liked/bookmarked came from the server for this reader. */
  statusLoaded: boolean;
  pending: { like: boolean; bookmark: boolean };
  error: string | null;
}

type Status = 'idle' | 'loading' | 'succeeded' | 'failed';

export interface InteractionsState {
  byPost: Record<string, PostInteraction>;
  views: Record<string, { views: number }>;
  polls: Record<string, Record<string, Poll>>;
  bookmarkedPosts: Post[];
  bookmarkedStatus: Status;
  bookmarkedError: string | null;
}

export const initialInteractionsState: InteractionsState = {
  byPost: {},
  views: {},
  polls: {},
  bookmarkedPosts: [],
  bookmarkedStatus: 'idle',
  bookmarkedError: null,
};

export function emptyInteraction(post?: Partial<Post>): PostInteraction {
  return {
    likes: { likesCount: post?.likesCount ?? 0, liked: false },
    bookmarks: { bookmarksCount: post?.bookmarksCount ?? 0, bookmarked: false },
    shares: { shareCount: post?.shareCount ?? 0 },
    timeSpent: { duration: 0, updatedAt: null },
    statusLoaded: false,
    pending: { like: false, bookmark: false },
    error: null,
  };
}

/** A poll as read from a post's block (the server may add the reader's choice). */
export function pollFromBlock(postId: string, block: Block): Poll {
  const d = block.data as {
    question?: string;
    options?: { text?: string; votes?: number }[];
    multiple?: boolean;
    closesAt?: string | null;
    userVote?: number | null;
    userVotes?: number[];
  };
  const options = (d.options ?? []).map((o) => ({ text: String(o.text ?? ''), votes: Math.max(0, Number(o.votes) || 0) }));
  const closesAt = d.closesAt ?? null;
  return {
    postId,
    blockId: block.id,
    question: String(d.question ?? ''),
    options,
    multiple: Boolean(d.multiple),
    closesAt,
    closed: closesAt !== null && new Date(closesAt).getTime() <= Date.now(),
    totalVotes: options.reduce((sum, o) => sum + o.votes, 0),
    userVote: typeof d.userVote === 'number' ? d.userVote : null,
    userVotes: Array.isArray(d.userVotes) ? d.userVotes : typeof d.userVote === 'number' ? [d.userVote] : [],
    voting: false,
    error: null,
  };
}

type AuthView = { auth: { isAuthenticated: boolean; user?: { _id: string } | null } };
type Config = { rejectValue: string; state: AuthView & { interactions: InteractionsState } };

/** liked/bookmarked and their counts for the signed-in reader (skipped for guests, seed 001 §7). */
export const fetchInteractionStatus = createAsyncThunk<
  { liked: boolean; bookmarked: boolean; likesCount: number; bookmarksCount: number },
  string,
  Config
>(
  'interactions/fetchStatus',
  async (postId, { rejectWithValue }) => {
    try {
      const r = await http.get<GetPostBookmarkStatusByPostIdApiResponse>(
        `/post/bookmark-status/${encodeURIComponent(postId)}`,
        ENGAGEMENT_FALLBACK.status,
      );
      return {
        liked: Boolean(r?.liked),
        bookmarked: Boolean(r?.bookmarked),
        likesCount: Number(r?.likesCount) || 0,
        bookmarksCount: Number(r?.bookmarksCount) || 0,
      };
    } catch (e) {
      return rejectWithValue(errorMessage(e, ENGAGEMENT_FALLBACK.status));
    }
  },
  { condition: (_, { getState }) => getState().auth.isAuthenticated },
);

/**
 * Like and bookmark: with the server out of reach, the state the reader wants (the optimistic
 * one) is queued for sending later (features/offline) and stays shown.
 */
export const toggleLike = createAsyncThunk<{ liked: boolean; likesCount: number }, { postId: string }, Config>(
  'interactions/toggleLike',
  async ({ postId }, { getState, rejectWithValue }) => {
    try {
      const r = await http.post<PostPostLikeByPostIdApiResponse>(`/post/like/${encodeURIComponent(postId)}`, {}, ENGAGEMENT_FALLBACK.like);
      return { liked: Boolean(r?.liked), likesCount: Number(r?.likesCount) || 0 };
    } catch (e) {
      const { auth, interactions } = getState();
      const wanted = interactions.byPost[postId]?.likes;
      if (wanted && (await queueToggleIfUnreachable(e, 'like', postId, wanted.liked, auth.user?._id))) return wanted;
      return rejectWithValue(errorMessage(e, ENGAGEMENT_FALLBACK.like));
    }
  },
  { condition: ({ postId }, { getState }) => getState().auth.isAuthenticated && !getState().interactions.byPost[postId]?.pending.like },
);

export const toggleBookmark = createAsyncThunk<{ bookmarked: boolean; bookmarksCount: number }, { postId: string; post?: Post }, Config>(
  'interactions/toggleBookmark',
  async ({ postId }, { getState, rejectWithValue }) => {
    try {
      const r = await http.post<PostPostBookmarkByPostIdApiResponse>(
        `/post/bookmark/${encodeURIComponent(postId)}`,
        {},
        ENGAGEMENT_FALLBACK.bookmark,
      );
      return { bookmarked: Boolean(r?.bookmarked), bookmarksCount: Number(r?.bookmarksCount) || 0 };
    } catch (e) {
      const { auth, interactions } = getState();
      const wanted = interactions.byPost[postId]?.bookmarks;
      if (wanted && (await queueToggleIfUnreachable(e, 'bookmark', postId, wanted.bookmarked, auth.user?._id))) return wanted;
      return rejectWithValue(errorMessage(e, ENGAGEMENT_FALLBACK.bookmark));
    }
  },
  { condition: ({ postId }, { getState }) => getState().auth.isAuthenticated && !getState().interactions.byPost[postId]?.pending.bookmark },
);

/** Counts a view: signed-in readers through /post/view, guests through the public family. */
export const trackView = createAsyncThunk<{ slug: string; views: number | null }, { slug: string }, Config>(
  'interactions/trackView',
  async ({ slug }, { getState, rejectWithValue }) => {
    const signedIn = getState().auth.isAuthenticated;
    const fallback = signedIn ? ENGAGEMENT_FALLBACK.view : ENGAGEMENT_FALLBACK.guestView;
    try {
      const guestId = storage.get(GUEST_ID_KEY);
      const r = signedIn
        ? await http.post<PostPostViewBySlugApiResponse>(`/post/view/${encodeURIComponent(slug)}`, {}, fallback)
        : await http.post<PostPublicPostBySlugViewApiResponse>(`/public/post/${encodeURIComponent(slug)}/view`, guestId ? { guestId } : {}, fallback);
      return { slug, views: typeof r?.views === 'number' ? r.views : null };
    } catch (e) {
      return rejectWithValue(errorMessage(e, fallback));
    }
  },
);

export const sharePost = createAsyncThunk<{ shareCount: number }, { postId: string }, Config>(
  'interactions/share',
  async ({ postId }, { rejectWithValue }) => {
    try {
      const r = await http.post<PostPostByPostIdShareApiResponse>(`/post/${encodeURIComponent(postId)}/share`, {}, ENGAGEMENT_FALLBACK.share);
      return { shareCount: Number(r?.shareCount) || 0 };
    } catch (e) {
      return rejectWithValue(errorMessage(e, ENGAGEMENT_FALLBACK.share));
    }
  },
);

/** The vote answer's poll (`PollView`) as a change to the kept one: what it leaves out stays. */
function pollUpdate({ question, closesAt, userVote, options, ...rest }: Schemas['PollView']): Partial<Poll> {
  return {
    ...rest,
    options: options.map((o) => ({ text: String(o.text), votes: o.votes })),
    ...(question !== null && question !== undefined ? { question } : {}),
    ...(closesAt !== undefined ? { closesAt } : {}),
    ...(userVote !== undefined ? { userVote } : {}),
  };
}

export const votePoll = createAsyncThunk<Partial<Poll>, { postId: string; blockId: string; optionIndex: number }, Config>(
  'interactions/vote',
  async (body, { rejectWithValue }) => {
    try {
      const r = await http.post<PostPostVoteApiResponse>('/post/vote', body, ENGAGEMENT_FALLBACK.vote);
      if (!r?.poll) return rejectWithValue(ENGAGEMENT_FALLBACK.vote);
      return pollUpdate(r.poll);
    } catch (e) {
      return rejectWithValue(errorMessage(e, ENGAGEMENT_FALLBACK.vote));
    }
  },
  { condition: ({ postId, blockId }, { getState }) => getState().auth.isAuthenticated && !getState().interactions.polls[postId]?.[blockId]?.voting },
);

export const fetchBookmarkedPosts = createAsyncThunk<Post[], void, Config>('interactions/fetchBookmarks', async (_, { rejectWithValue }) => {
  try {
    const r = await http.get<GetPostGetPostBookmarksApiResponse>('/post/get-post/bookmarks', ENGAGEMENT_FALLBACK.bookmarks);
    return r?.posts ?? [];
  } catch (e) {
    return rejectWithValue(errorMessage(e, ENGAGEMENT_FALLBACK.bookmarks));
  }
});

function entry(state: InteractionsState, postId: string): PostInteraction {
  if (!state.byPost[postId]) state.byPost[postId] = emptyInteraction();
  return state.byPost[postId];
}

function seedPolls(state: InteractionsState, post: Post) {
  const polls = (state.polls[post._id] ??= {});
  for (const block of post.blocks ?? []) {
    if (block.type !== 'poll') continue;
    const seeded = pollFromBlock(post._id, block);
    const known = polls[block.id];
    // The reader's choice made in this visit stays when the post is read again.
    polls[block.id] = known && seeded.userVote === null && seeded.userVotes.length === 0 ? { ...seeded, userVote: known.userVote, userVotes: known.userVotes } : seeded;
  }
}

function mergePoll(current: Poll | undefined, postId: string, blockId: string, update: Partial<Poll>): Poll {
  const base: Poll = current ?? pollFromBlock(postId, { id: blockId, type: 'poll', data: {} });
  const options = update.options ? update.options.map((o) => ({ text: String(o.text), votes: Math.max(0, Number(o.votes) || 0) })) : base.options;
  const userVotes = Array.isArray(update.userVotes) ? update.userVotes : typeof update.userVote === 'number' ? [update.userVote] : base.userVotes;
  return {
    ...base,
    ...update,
    postId,
    blockId,
    options,
    totalVotes: typeof update.totalVotes === 'number' ? update.totalVotes : options.reduce((s, o) => s + o.votes, 0),
    userVote: update.userVote !== undefined ? update.userVote : base.userVote,
    userVotes,
    voting: false,
    error: null,
  };
}

const interactionsSlice = createSlice({
  name: 'interactions',
  initialState: initialInteractionsState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(sessionUserChanged, () => initialInteractionsState)
      // A post read from the server brings its counts and its polls.
      .addCase(fetchPost.fulfilled, (state, action) => {
        const post = action.payload;
        const current = state.byPost[post._id];
        state.byPost[post._id] = {
          ...(current ?? emptyInteraction(post)),
          likes: { likesCount: post.likesCount ?? 0, liked: current?.likes.liked ?? false },
          bookmarks: { bookmarksCount: post.bookmarksCount ?? 0, bookmarked: current?.bookmarks.bookmarked ?? false },
          shares: { shareCount: post.shareCount ?? 0 },
        };
        state.views[post.slug] = { views: post.views ?? 0 };
        seedPolls(state, post);
      })
      .addCase(fetchInteractionStatus.fulfilled, (state, action) => {
        const e = entry(state, action.meta.arg);
        e.likes = { liked: action.payload.liked, likesCount: action.payload.likesCount };
        e.bookmarks = { bookmarked: action.payload.bookmarked, bookmarksCount: action.payload.bookmarksCount };
        e.statusLoaded = true;
      })
      .addCase(fetchInteractionStatus.rejected, (state, action) => {
        if (action.meta.condition) return;
        entry(state, action.meta.arg).error = action.payload ?? ENGAGEMENT_FALLBACK.status;
      })
      // Optimistic like: flipped at once, set from the server's answer, rolled back on failure.
      .addCase(toggleLike.pending, (state, action) => {
        const e = entry(state, action.meta.arg.postId);
        e.pending.like = true;
        e.error = null;
        e.likes = { liked: !e.likes.liked, likesCount: Math.max(0, e.likes.likesCount + (e.likes.liked ? -1 : 1)) };
      })
      .addCase(toggleLike.fulfilled, (state, action) => {
        const e = entry(state, action.meta.arg.postId);
        e.pending.like = false;
        e.likes = action.payload;
      })
      .addCase(toggleLike.rejected, (state, action) => {
        if (action.meta.condition) return;
        const e = entry(state, action.meta.arg.postId);
        e.pending.like = false;
        e.likes = { liked: !e.likes.liked, likesCount: Math.max(0, e.likes.likesCount + (e.likes.liked ? -1 : 1)) };
        e.error = action.payload ?? ENGAGEMENT_FALLBACK.like;
      })
      // Optimistic bookmark; the bookmarked list follows (seed 001 §4 "Bookmark toggle adds or
      // removes the post from the bookmarked list").
      .addCase(toggleBookmark.pending, (state, action) => {
        const { postId, post } = action.meta.arg;
        const e = entry(state, postId);
        e.pending.bookmark = true;
        e.error = null;
        const bookmarked = !e.bookmarks.bookmarked;
        e.bookmarks = { bookmarked, bookmarksCount: Math.max(0, e.bookmarks.bookmarksCount + (bookmarked ? 1 : -1)) };
        if (bookmarked && post && !state.bookmarkedPosts.some((p) => p._id === postId)) state.bookmarkedPosts.unshift(post);
        if (!bookmarked) state.bookmarkedPosts = state.bookmarkedPosts.filter((p) => p._id !== postId);
      })
      .addCase(toggleBookmark.fulfilled, (state, action) => {
        const { postId, post } = action.meta.arg;
        const e = entry(state, postId);
        e.pending.bookmark = false;
        e.bookmarks = action.payload;
        if (!action.payload.bookmarked) state.bookmarkedPosts = state.bookmarkedPosts.filter((p) => p._id !== postId);
        else if (post && !state.bookmarkedPosts.some((p) => p._id === postId)) state.bookmarkedPosts.unshift(post);
      })
      .addCase(toggleBookmark.rejected, (state, action) => {
        if (action.meta.condition) return;
        const { postId, post } = action.meta.arg;
        const e = entry(state, postId);
        e.pending.bookmark = false;
        const bookmarked = !e.bookmarks.bookmarked;
        e.bookmarks = { bookmarked, bookmarksCount: Math.max(0, e.bookmarks.bookmarksCount + (bookmarked ? 1 : -1)) };
        if (bookmarked && post && !state.bookmarkedPosts.some((p) => p._id === postId)) state.bookmarkedPosts.unshift(post);
        if (!bookmarked) state.bookmarkedPosts = state.bookmarkedPosts.filter((p) => p._id !== postId);
        e.error = action.payload ?? ENGAGEMENT_FALLBACK.bookmark;
      })
      .addCase(trackView.fulfilled, (state, action) => {
        if (action.payload.views !== null) state.views[action.payload.slug] = { views: action.payload.views };
      })
      .addCase(sharePost.fulfilled, (state, action) => {
        entry(state, action.meta.arg.postId).shares = action.payload;
      })
      .addCase(sharePost.rejected, (state, action) => {
        entry(state, action.meta.arg.postId).error = action.payload ?? ENGAGEMENT_FALLBACK.share;
      })
      .addCase(submitReadingTime.fulfilled, (state, action) => {
        entry(state, action.payload.postId).timeSpent = { duration: action.payload.duration, updatedAt: action.payload.updatedAt };
      })
      .addCase(votePoll.pending, (state, action) => {
        const { postId, blockId } = action.meta.arg;
        const polls = (state.polls[postId] ??= {});
        polls[blockId] = { ...(polls[blockId] ?? pollFromBlock(postId, { id: blockId, type: 'poll', data: {} })), voting: true, error: null };
      })
      .addCase(votePoll.fulfilled, (state, action) => {
        const { postId, blockId } = action.meta.arg;
        const polls = (state.polls[postId] ??= {});
        polls[blockId] = mergePoll(polls[blockId], postId, blockId, action.payload);
      })
      .addCase(votePoll.rejected, (state, action) => {
        if (action.meta.condition) return;
        const { postId, blockId } = action.meta.arg;
        const poll = state.polls[postId]?.[blockId];
        if (poll) {
          poll.voting = false;
          poll.error = action.payload ?? ENGAGEMENT_FALLBACK.vote;
        }
      })
      .addCase(fetchBookmarkedPosts.pending, (state) => {
        state.bookmarkedStatus = 'loading';
        state.bookmarkedError = null;
      })
      .addCase(fetchBookmarkedPosts.fulfilled, (state, action) => {
        state.bookmarkedStatus = 'succeeded';
        state.bookmarkedPosts = action.payload;
        for (const p of action.payload) {
          const e = entry(state, p._id);
          e.bookmarks = { bookmarked: true, bookmarksCount: Math.max(e.bookmarks.bookmarksCount, p.bookmarksCount ?? 1) };
        }
      })
      .addCase(fetchBookmarkedPosts.rejected, (state, action) => {
        state.bookmarkedStatus = 'failed';
        state.bookmarkedError = action.payload ?? ENGAGEMENT_FALLBACK.bookmarks;
      })
      .addCase(deletePost.fulfilled, (state, action) => {
        delete state.byPost[action.payload];
        delete state.polls[action.payload];
        state.bookmarkedPosts = state.bookmarkedPosts.filter((p) => p._id !== action.payload);
      });
  },
});

export const interactionsReducer = interactionsSlice.reducer;

type WithInteractions = { interactions: InteractionsState };
export const selectInteraction = (state: WithInteractions, postId: string): PostInteraction | undefined => state.interactions.byPost[postId];
export const selectPoll = (state: WithInteractions, postId: string, blockId: string): Poll | undefined => state.interactions.polls[postId]?.[blockId];
export const selectViews = (state: WithInteractions, slug: string) => state.interactions.views[slug]?.views;
export const selectBookmarks = createSelector(
  [(state: WithInteractions) => state.interactions.bookmarkedPosts, (state: WithInteractions) => state.interactions.bookmarkedStatus, (state: WithInteractions) => state.interactions.bookmarkedError],
  (posts, status, error) => ({ posts, status, error }),
);
