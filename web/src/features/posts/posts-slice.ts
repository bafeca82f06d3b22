/**
 * Posts (seed 000 §3 "Post", §4 "Posts", §7 "Posts"): the lists kept per view (posts,
 * publicPosts, followingPosts, latestPosts, trendingPosts, searchPosts), the open post, the
 * counts, the search query and sort option, and reading tracking. Lists append page by page and
 * de-duplicate by `_id`; a list remembers what it was loaded for (a tag, a category, a query) and
 * starts over when that changes.
 */
import { createAsyncThunk, createSlice, current, type PayloadAction } from '@reduxjs/toolkit';
import { sharedWith } from './shared-post';
import type {
  GetPostBySlugApiResponse,
  GetPublicPostBySlugApiResponse,
  PatchPostUpdateBySlugApiResponse,
  PostPostAppealByPostIdApiResponse,
  PostPostPostCreateApiResponse,
  PostPostTimeSpentByPostIdApiResponse,
} from '@/api/endpoints';
import { errorMessage, http, request } from '@/lib/http';
import { ownProfileChanged, sessionUserChanged } from '@/lib/session';
import type { Post, PostCounts } from '@/types/entities';
import { socketEvents } from '@/features/socket';
import { blockUser } from '@/features/blocks';
import {
  countsIn,
  emptyList,
  filterKeyOf,
  FOLLOWING_PAGE_SIZE,
  initialPostsState,
  POST_FALLBACK,
  POST_PAGE_SIZE,
  postItems,
  postsAdapter,
  type ListFilter,
  type ListKey,
  type PostCountAnswer,
  type PostListAnswer,
  type PostsState,
  type SortOption,
} from './posts-state';
import { eachList, eachListedPost, putFirst, removeEverywhere, removeWhere } from './posts-lists';

export * from './posts-state';

type AuthView = { auth: { isAuthenticated: boolean; user?: { _id: string; role?: string } | null; role?: string | null } };
type RootLike = AuthView & { posts: PostsState };
type Config = { rejectValue: string; state: RootLike };


/** Every post count the viewer has: the public count, and their own and following for users. */
export const fetchPostCounts = createAsyncThunk<Partial<PostCounts>, void, Config>('posts/fetchCounts', async (_, { getState, rejectWithValue }) => {
  const count = async (path: string) =>
    Number((await http.get<PostCountAnswer>(path, POST_FALLBACK.counts))?.count) || 0;
  try {
    if (!getState().auth.isAuthenticated) return { allPostsCount: await count('/post/count/all') };
    const [allPostsCount, myPostsCount, followingPostsCount] = await Promise.all([
      count('/post/count/all'),
      count('/post/count/my'),
      count('/post/count/following'),
    ]);
    return { allPostsCount, myPostsCount, followingPostsCount };
  } catch (e) {
    return rejectWithValue(errorMessage(e, POST_FALLBACK.counts));
  }
});

interface ListPage {
  posts: Post[];
  total: number;
}

interface Endpoint {
  path: string | ((filter: ListFilter) => string);
  fallback: string;
  signedInOnly?: boolean;
  /** Numbered pages instead of the `after` cursor. */
  paged?: boolean;
  limit: number;
  query: (filter: ListFilter) => Record<string, string | undefined>;
}

function endpointOf(list: ListKey, signedIn: boolean): Endpoint {
  switch (list) {
    case 'latestPosts':
      return { path: '/post/latest-post/latest', fallback: POST_FALLBACK.latest, limit: POST_PAGE_SIZE, query: () => ({}) };
    case 'trendingPosts':
      return { path: '/post/trending-post/trending', fallback: POST_FALLBACK.trending, limit: POST_PAGE_SIZE, query: () => ({}) };
    case 'followingPosts':
      return { path: '/post/following', fallback: POST_FALLBACK.following, limit: FOLLOWING_PAGE_SIZE, paged: true, signedInOnly: true, query: () => ({}) };
    case 'posts':
      return { path: '/post/all-post', fallback: POST_FALLBACK.posts, limit: POST_PAGE_SIZE, signedInOnly: true, query: (f) => ({ authorId: f.authorId }) };
    case 'publicPosts':
      return { path: '/post/public/posts', fallback: POST_FALLBACK.publicPosts, limit: POST_PAGE_SIZE, query: (f) => ({ tag: f.tag, category: f.category }) };
    case 'userPosts':
      return {
        path: (f) => `/post/user/${encodeURIComponent(f.userId ?? '')}/posts`,
        fallback: POST_FALLBACK.userPosts,
        limit: POST_PAGE_SIZE,
        query: (f) => ({ search: f.query, sort: f.sort }),
      };
    case 'searchPosts':
      return signedIn
        ? { path: '/post/search-post/search', fallback: POST_FALLBACK.search, limit: POST_PAGE_SIZE, query: (f) => ({ query: f.query }) }
        : { path: '/public/search-posts', fallback: POST_FALLBACK.publicSearch, limit: POST_PAGE_SIZE, paged: true, query: (f) => ({ query: f.query }) };
  }
}

export interface FetchListArg {
  list: ListKey;
  filter?: ListFilter;
  /** Load the next page; otherwise load the first page again. */
  more?: boolean;
}

/**
 * A page of a list: the first page (replacing the list when its filter changed, refreshing it
 * otherwise) or the next one (`after` = createdAt of the last post received, with `afterId`
 * for an exact keyset; numbered pages for the following feed and guest search).
 */
export const fetchPostList = createAsyncThunk<ListPage & { page: number }, FetchListArg, Config>(
  'posts/fetchList',
  async ({ list, filter = {}, more = false }, { getState, rejectWithValue }) => {
    const state = getState();
    const endpoint = endpointOf(list, state.auth.isAuthenticated);
    if (endpoint.signedInOnly && !state.auth.isAuthenticated) return rejectWithValue(POST_FALLBACK.signInRequired);
    const current = state.posts.lists[list];
    const page = more ? current.page + 1 : 1;
    const lastId = more ? current.items.ids[current.items.ids.length - 1] : undefined;
    const last = lastId === undefined ? undefined : current.items.entities[lastId];
    const query: Record<string, string | number | undefined> = { limit: endpoint.limit, ...endpoint.query(filter) };
    if (endpoint.paged) query.page = page;
    else if (last) {
      query.after = last.createdAt;
      query.afterId = last._id;
    }
    try {
      const path = typeof endpoint.path === 'function' ? endpoint.path(filter) : endpoint.path;
      const r = await http.get<PostListAnswer>(path, endpoint.fallback, query);
      return { posts: r?.posts ?? [], total: Number(r?.total) || 0, page };
    } catch (e) {
      return rejectWithValue(errorMessage(e, endpoint.fallback));
    }
  },
  {
    condition: ({ list, filter, more }, { getState }) => {
      if (!more) return true;
      const current = getState().posts.lists[list];
      return current.status !== 'loading' && current.hasMore && current.filterKey === filterKeyOf(filter);
    },
  },
);

export const fetchPost = createAsyncThunk<Post, { slug: string }, Config>('posts/fetchOne', async ({ slug }, { getState, rejectWithValue }) => {
  if (typeof slug !== 'string' || slug.trim() === '') return rejectWithValue(POST_FALLBACK.invalidSlug);
  const path = getState().auth.isAuthenticated ? `/post/${encodeURIComponent(slug)}` : `/public/post/${encodeURIComponent(slug)}`;
  try {
    const r = await http.get<GetPostBySlugApiResponse | GetPublicPostBySlugApiResponse>(path, POST_FALLBACK.post);
    if (!r?.post) return rejectWithValue(POST_FALLBACK.notFound);
    return r.post;
  } catch (e) {
    return rejectWithValue(errorMessage(e, POST_FALLBACK.post));
  }
});

/** What the editor sends: the post body of post-create and update (server-owned keys are ignored). */
export interface PostInput {
  title: string;
  blocks: unknown[];
  thumbnail?: string | null;
  category?: string | null;
  tags?: string[];
  postType?: string;
  visibility?: string;
  /** `everyone` or `subscribers` (readers with a running subscription to the author). */
  audience?: string;
  language?: string;
  isFeatured?: boolean;
  isPinned?: boolean;
  status?: 'draft' | 'published' | 'scheduled';
  publishAt?: string | null;
  /** Whether followers and email subscribers get the post by email when it becomes visible. */
  emailSubscribers?: boolean;
}

const BLOB = /(^|["'(=\s])blob:/i;

/** The client's own checks before a save (the server makes the same ones). */
export function checkPostInput(input: Pick<PostInput, 'blocks' | 'thumbnail'>): string | null {
  if (!Array.isArray(input.blocks) || input.blocks.length === 0) return POST_FALLBACK.blocksRequired;
  if ((input.thumbnail && BLOB.test(input.thumbnail)) || BLOB.test(JSON.stringify(input.blocks))) return POST_FALLBACK.blobUrl;
  return null;
}

export const createPost = createAsyncThunk<Post, PostInput, Config>('posts/create', async (input, { rejectWithValue }) => {
  const problem = checkPostInput(input);
  if (problem) return rejectWithValue(problem);
  try {
    const r = await http.post<PostPostPostCreateApiResponse>('/post/post-create', input, POST_FALLBACK.create);
    return r.post;
  } catch (e) {
    return rejectWithValue(errorMessage(e, POST_FALLBACK.create));
  }
});

export const updatePost = createAsyncThunk<Post, { slug: string; changes: Partial<PostInput> }, Config>(
  'posts/update',
  async ({ slug, changes }, { rejectWithValue }) => {
    if (changes.blocks !== undefined || changes.thumbnail !== undefined) {
      const problem = checkPostInput({ blocks: changes.blocks ?? [{}], thumbnail: changes.thumbnail });
      if (problem) return rejectWithValue(problem);
    }
    try {
      const r = await http.patch<PatchPostUpdateBySlugApiResponse>(`/post/update/${encodeURIComponent(slug)}`, changes, POST_FALLBACK.update);
      return r.post;
    } catch (e) {
      return rejectWithValue(errorMessage(e, POST_FALLBACK.update));
    }
  },
);

export const deletePost = createAsyncThunk<string, string, Config>('posts/delete', async (postId, { rejectWithValue }) => {
  try {
    await http.delete(`/post/delete/${encodeURIComponent(postId)}`, POST_FALLBACK.delete);
    return postId;
  } catch (e) {
    return rejectWithValue(errorMessage(e, POST_FALLBACK.delete));
  }
});

/** Reading time in seconds for a post (seed 000 §5: postId must be a string, else 'Invalid postId'). */
export const submitReadingTime = createAsyncThunk<
  { postId: string; duration: number; updatedAt: string | null },
  { postId: unknown; seconds: number },
  Config
>('posts/submitReadingTime', async ({ postId, seconds }, { rejectWithValue }) => {
  if (typeof postId !== 'string' || postId === '') return rejectWithValue(POST_FALLBACK.invalidPostId);
  try {
    // keepalive: the report is usually sent as the reader leaves, perhaps closing the tab.
    const r = await request<PostPostTimeSpentByPostIdApiResponse>(`/post/time-spent/${encodeURIComponent(postId)}`, {
      method: 'POST',
      body: { duration: Math.max(1, Math.round(seconds)) },
      fallback: POST_FALLBACK.readingTime,
      keepalive: true,
    });
    return { postId, duration: Number(r?.duration) || 0, updatedAt: r?.updatedAt ?? null };
  } catch (e) {
    return rejectWithValue(errorMessage(e, POST_FALLBACK.readingTime));
  }
});

export const sendAppeal = createAsyncThunk<string, { postId: string; message: string }, Config>(
  'posts/appeal',
  async ({ postId, message }, { rejectWithValue }) => {
    try {
      const r = await http.post<PostPostAppealByPostIdApiResponse>(`/post/appeal/${encodeURIComponent(postId)}`, { message }, POST_FALLBACK.appeal);
      return r?.message ?? 'Appeal sent';
    } catch (e) {
      return rejectWithValue(errorMessage(e, POST_FALLBACK.appeal));
    }
  },
);

const postsSlice = createSlice({
  name: 'posts',
  initialState: initialPostsState,
  reducers: {
    /**
     * The post the server rendered into the page (its initial data): shown at once, so the app
     * takes over the server's article without a spinner in between; the page still reads it again
     * for the viewer.
     */
    currentPostPreloaded(state, action: PayloadAction<Post>) {
      state.currentPost = action.payload;
      state.currentStatus = 'succeeded';
      state.error = null;
    },
    /** The first page of a list the server drew into the page: the same cards, no request, no spinner. */
    listPreloaded(state, action: PayloadAction<{ list: ListKey; filter: ListFilter; posts: Post[]; total: number }>) {
      const { list, filter, posts, total } = action.payload;
      const items = postItems(posts);
      state.lists[list] = {
        ...emptyList(),
        items,
        total: Math.max(total, items.ids.length),
        status: 'succeeded',
        filterKey: filterKeyOf(filter),
        page: 1,
        hasMore: items.ids.length > 0 && items.ids.length < total,
        preloaded: true,
      };
    },
    /** The screen showing a preloaded list has taken it (later visits read it again). */
    listPreloadUsed(state, action: PayloadAction<ListKey>) {
      state.lists[action.payload].preloaded = false;
    },
    /** Counts the server wrote into the page. */
    countsPreloaded(state, action: PayloadAction<Partial<PostCounts>>) {
      Object.assign(state.counts, action.payload);
    },
    /** The blocked flag of the open post, set locally (seed 000 §4). */
    currentPostBlockedSet(state, action: PayloadAction<boolean>) {
      if (state.currentPost) state.currentPost.blocked = action.payload;
    },
    /** The post was blocked and the viewer may no longer see it: it leaves every list and the page. */
    postHiddenFromViewer(state, action: PayloadAction<string>) {
      const open = state.currentPost?._id === action.payload;
      removeEverywhere(state, action.payload);
      if (open) {
        state.currentStatus = 'failed';
        state.error = POST_FALLBACK.notFound;
      }
    },
    searchQueryChanged(state, action: PayloadAction<string>) {
      state.searchQuery = action.payload;
    },
    sortChanged(state, action: PayloadAction<SortOption>) {
      state.sort = action.payload;
    },
    /** Start sets isTracking with postId and time (seed 000 §4). */
    readingStarted(state, action: PayloadAction<{ postId: string; at: number }>) {
      state.tracking = { postId: action.payload.postId, startTime: action.payload.at, isTracking: true };
    },
    /** Stop clears it. */
    readingStopped(state) {
      state.tracking = { postId: null, startTime: null, isTracking: false };
    },
    editorOpened(state) {
      state.updateSuccess = false;
      state.saveError = null;
    },
    /** Counts of the interaction bar, mirrored into every copy of the post. */
    postCountersChanged(state, action: PayloadAction<{ postId: string; changes: Partial<Post> }>) {
      const apply = (p: Post) => {
        if (p._id === action.payload.postId) Object.assign(p, action.payload.changes);
      };
      eachListedPost(state, apply);
      if (state.currentPost) apply(state.currentPost);
    },
  },
  extraReducers: (builder) => {
    builder
      // Lists and the open post depend on who is looking (drafts, private posts, blocks), and
      // the own and following counts are the user's.
      .addCase(sessionUserChanged, (state) => {
        const fresh = initialPostsState();
        state.lists = fresh.lists;
        state.currentPost = null;
        state.currentStatus = 'idle';
        state.currentRequestId = null;
        state.counts.myPostsCount = 0;
        state.counts.followingPostsCount = 0;
        state.tracking = fresh.tracking;
      })
      .addCase(fetchPostList.pending, (state, action) => {
        const { list: key, filter, more } = action.meta.arg;
        const list = state.lists[key];
        const filterKey = filterKeyOf(filter);
        if (!more && list.filterKey !== filterKey) {
          state.lists[key] = { ...emptyList(), filterKey };
        }
        state.lists[key].status = 'loading';
        state.lists[key].error = null;
        state.lists[key].requestId = action.meta.requestId;
      })
      .addCase(fetchPostList.fulfilled, (state, action) => {
        const { list: key, more } = action.meta.arg;
        const list = state.lists[key];
        if (list.requestId !== action.meta.requestId) return;
        const { posts, total, page } = action.payload;
        list.requestId = null;
        list.status = 'succeeded';
        // A later page adds the posts not already in the list; the first one replaces it.
        if (more) postsAdapter.addMany(list.items, posts);
        else postsAdapter.setAll(list.items, posts);
        list.total = Math.max(total, list.items.ids.length);
        list.page = page;
        list.hasMore = posts.length > 0 && list.items.ids.length < total;
      })
      .addCase(fetchPostList.rejected, (state, action) => {
        const list = state.lists[action.meta.arg.list];
        if (action.meta.condition || list.requestId !== action.meta.requestId) return;
        list.requestId = null;
        list.status = 'failed';
        list.error = action.payload ?? POST_FALLBACK.posts;
      })
      .addCase(fetchPost.pending, (state, action) => {
        state.currentStatus = 'loading';
        state.currentRequestId = action.meta.requestId;
        state.error = null;
      })
      .addCase(fetchPost.fulfilled, (state, action) => {
        if (state.currentRequestId !== action.meta.requestId) return;
        state.currentRequestId = null;
        state.currentStatus = 'succeeded';
        state.currentPost = sharedWith(state.currentPost ? current(state.currentPost) : null, action.payload);
      })
      // A failed single-post fetch clears currentPost.
      .addCase(fetchPost.rejected, (state, action) => {
        if (state.currentRequestId !== action.meta.requestId) return;
        state.currentRequestId = null;
        state.currentStatus = 'failed';
        state.currentPost = null;
        state.error = action.payload ?? POST_FALLBACK.post;
      })
      .addCase(createPost.pending, (state) => {
        state.saving = true;
        state.saveError = null;
      })
      // Creating a post puts it at the front of posts and followingPosts.
      .addCase(createPost.fulfilled, (state, action) => {
        state.saving = false;
        putFirst(state.lists.posts, action.payload);
        putFirst(state.lists.followingPosts, action.payload);
      })
      .addCase(createPost.rejected, (state, action) => {
        state.saving = false;
        state.saveError = action.payload ?? POST_FALLBACK.create;
      })
      .addCase(updatePost.pending, (state) => {
        state.saving = true;
        state.saveError = null;
        state.updateSuccess = false;
      })
      // Updating merges by slug into every list and into currentPost and sets updateSuccess.
      .addCase(updatePost.fulfilled, (state, action) => {
        const post = action.payload;
        state.saving = false;
        state.updateSuccess = true;
        eachListedPost(state, (p) => {
          if (p.slug === post.slug) Object.assign(p, post);
        });
        if (state.currentPost?.slug === post.slug) state.currentPost = { ...state.currentPost, ...post };
      })
      .addCase(updatePost.rejected, (state, action) => {
        state.saving = false;
        state.saveError = action.payload ?? POST_FALLBACK.update;
      })
      // Deleting removes it from all lists and clears currentPost if it matches.
      .addCase(deletePost.fulfilled, (state, action) => {
        removeEverywhere(state, action.payload);
      })
      .addCase(deletePost.rejected, (state, action) => {
        state.error = action.payload ?? POST_FALLBACK.delete;
      })
      // A successful time submission clears the tracking.
      .addCase(submitReadingTime.fulfilled, (state, action) => {
        if (state.tracking.postId === action.payload.postId) state.tracking = { postId: null, startTime: null, isTracking: false };
      })
      // Sets the counts that are present and keeps the others; an event with none of them
      // makes the posts listener refetch every count.
      .addCase(socketEvents.postCountsUpdated, (state, action) => {
        Object.assign(state.counts, countsIn(action.payload));
      })
      .addCase(fetchPostCounts.fulfilled, (state, action) => {
        Object.assign(state.counts, action.payload);
      })
      // The signed-in user's new name and avatar show on their posts at once.
      .addCase(ownProfileChanged, (state, action) => {
        const { _id, name, avatar } = action.payload;
        const apply = (p: Post) => {
          if (p.author?._id === _id) p.author = { ...p.author, name, avatar };
        };
        eachListedPost(state, apply);
        if (state.currentPost) apply(state.currentPost);
      })
      // Someone the user blocked: their posts leave every list (the server hides them from now on).
      .addCase(blockUser.fulfilled, (state, action) => {
        const blocked = action.meta.arg.userId;
        eachList(state, (list) => removeWhere(list, (p) => p.author?._id === blocked));
      })
      .addCase(socketEvents.postBlockToggled, (state, action) => {
        const { postId, blocked } = action.payload;
        if (state.currentPost?._id === postId) state.currentPost.blocked = blocked;
        eachListedPost(state, (p) => p._id === postId && (p.blocked = blocked));
      });
  },
});

export const {
  currentPostPreloaded,
  listPreloaded,
  listPreloadUsed,
  countsPreloaded,
  currentPostBlockedSet,
  postHiddenFromViewer,
  searchQueryChanged,
  sortChanged,
  readingStarted,
  readingStopped,
  editorOpened,
  postCountersChanged,
} = postsSlice.actions;
export const postsReducer = postsSlice.reducer;

type WithPosts = { posts: PostsState };
export const selectPosts = (state: WithPosts) => state.posts;
export const selectPostList = (state: WithPosts, key: ListKey) => state.posts.lists[key];
export const selectCurrentPost = (state: WithPosts) => state.posts.currentPost;
export const selectPostCounts = (state: WithPosts) => state.posts.counts;
