/** The posts state: its lists, filters, counts and constants (see posts-slice.ts). */
import { createEntityAdapter, type EntityState } from '@reduxjs/toolkit';
import type {
  GetPostAllPostApiResponse,
  GetPostCountAllApiResponse,
  GetPostCountFollowingApiResponse,
  GetPostCountMyApiResponse,
  GetPostFollowingApiResponse,
  GetPostLatestPostLatestApiResponse,
  GetPostPublicPostsApiResponse,
  GetPostSearchPostSearchApiResponse,
  GetPostTrendingPostTrendingApiResponse,
  GetPostUserByUserIdPostsApiResponse,
  GetPublicPostsApiResponse,
  GetPublicSearchPostsApiResponse,
} from '@/api/endpoints';
import type { Post, PostCounts } from '@/types/entities';

/** What `/post/count/all`, `/post/count/my` and `/post/count/following` answer. */
export type PostCountAnswer = GetPostCountAllApiResponse | GetPostCountMyApiResponse | GetPostCountFollowingApiResponse;

/** What the lists' endpoints answer (`endpointOf` in posts-slice.ts picks one per list). */
export type PostListAnswer =
  | GetPostFollowingApiResponse
  | GetPostPublicPostsApiResponse
  | GetPostAllPostApiResponse
  | GetPostLatestPostLatestApiResponse
  | GetPostTrendingPostTrendingApiResponse
  | GetPostSearchPostSearchApiResponse
  | GetPostUserByUserIdPostsApiResponse
  | GetPublicPostsApiResponse
  | GetPublicSearchPostsApiResponse;

export const POST_PAGE_SIZE = 12;
export const FOLLOWING_PAGE_SIZE = 50;
/** Kept for the public list's page size (seed 000 §9: 12 for the public list). */
export const PUBLIC_PAGE_SIZE = POST_PAGE_SIZE;

export const POST_FALLBACK = {
  following: 'Failed to fetch following posts',
  publicPosts: 'Failed to fetch public posts',
  create: 'Failed to create post',
  posts: 'Failed to fetch posts',
  latest: 'Failed to load latest posts',
  trending: 'Failed to load trending posts',
  search: 'Failed to load search results',
  publicSearch: 'Failed to search public posts',
  post: 'Failed to fetch post',
  update: 'Failed to update post',
  delete: 'Failed to delete post',
  readingTime: 'Failed to submit reading time',
  appeal: 'Failed to send appeal',
  counts: 'Failed to fetch post counts',
  notFound: 'Post not found',
  invalidSlug: 'Invalid post slug',
  invalidPostId: 'Invalid postId',
  signInRequired: 'You must be signed in to access this feature.',
  blocksRequired: 'Blocks are required',
  blobUrl: 'Upload failed: Please convert Blob URLs to base64 or upload images properly.',
  userPosts: 'Failed to fetch user posts',
} as const;

export type Status = 'idle' | 'loading' | 'succeeded' | 'failed';
/** `userPosts`: one author's posts on their profile (drafts and scheduled ones for the author). */
export type ListKey = 'posts' | 'publicPosts' | 'followingPosts' | 'latestPosts' | 'trendingPosts' | 'searchPosts' | 'userPosts';
export const LIST_KEYS: ListKey[] = ['posts', 'publicPosts', 'followingPosts', 'latestPosts', 'trendingPosts', 'searchPosts', 'userPosts'];

/**
 * What a list is loaded for: a tag or category (publicPosts), a query (searchPosts and userPosts),
 * authors (posts), one author and an order (userPosts).
 */
export interface ListFilter {
  tag?: string;
  category?: string;
  query?: string;
  authorId?: string;
  userId?: string;
  sort?: SortOption;
}

/**
 * A list's posts, kept by an entity adapter: one entry per `_id`, the ids in the list's order
 * (a page appends the posts not already in it; a created post goes to the front).
 */
export const postsAdapter = createEntityAdapter<Post, string>({ selectId: (p) => p._id });

/** Posts as a list's items (in their order, the first of a repeated `_id` kept). */
export const postItems = (posts: Post[] = []) => postsAdapter.setAll(postsAdapter.getInitialState(), posts);

export interface PostList {
  items: EntityState<Post, string>;
  total: number;
  status: Status;
  error: string | null;
  /** The filter the items belong to, as a stable string. */
  filterKey: string;
  /** Pages loaded (for the page-numbered endpoints). */
  page: number;
  hasMore: boolean;
  requestId: string | null;
  /** The first page came with the page the server painted: the screen need not read it again. */
  preloaded?: boolean;
}

export type SortOption = 'newest' | 'oldest' | 'popular';

export interface ReadingTracking {
  postId: string | null;
  startTime: number | null;
  isTracking: boolean;
}

export interface PostsState {
  lists: Record<ListKey, PostList>;
  currentPost: Post | null;
  currentStatus: Status;
  /** The request the open post waits for; answers to any other are stale and dropped. */
  currentRequestId: string | null;
  counts: PostCounts;
  searchQuery: string;
  sort: SortOption;
  tracking: ReadingTracking;
  /** Set by a successful update (seed 000 §4), cleared when the editor opens again. */
  updateSuccess: boolean;
  saving: boolean;
  saveError: string | null;
  error: string | null;
}

export const emptyList = (): PostList => ({
  items: postItems(),
  total: 0,
  status: 'idle',
  error: null,
  filterKey: '',
  page: 0,
  hasMore: false,
  requestId: null,
});

export function initialPostsState(): PostsState {
  return {
    lists: {
      posts: emptyList(),
      publicPosts: emptyList(),
      followingPosts: emptyList(),
      latestPosts: emptyList(),
      trendingPosts: emptyList(),
      searchPosts: emptyList(),
      userPosts: emptyList(),
    },
    currentPost: null,
    currentStatus: 'idle',
    currentRequestId: null,
    counts: { allPostsCount: 0, myPostsCount: 0, followingPostsCount: 0 },
    searchQuery: '',
    sort: 'newest',
    tracking: { postId: null, startTime: null, isTracking: false },
    updateSuccess: false,
    saving: false,
    saveError: null,
    error: null,
  };
}

export const filterKeyOf = (filter: ListFilter = {}): string =>
  JSON.stringify([filter.tag ?? '', filter.category ?? '', filter.query ?? '', filter.authorId ?? '', filter.userId ?? '', filter.sort ?? '']);

/** The filter a key was made from (the inverse of `filterKeyOf`). */
export function filterOfKey(key: string): ListFilter {
  const [tag, category, query, authorId, userId, sort] = JSON.parse(key) as string[];
  return {
    ...(tag ? { tag } : {}),
    ...(category ? { category } : {}),
    ...(query ? { query } : {}),
    ...(authorId ? { authorId } : {}),
    ...(userId ? { userId } : {}),
    ...(sort ? { sort: sort as SortOption } : {}),
  };
}

export const COUNT_KEYS = ['allPostsCount', 'myPostsCount', 'followingPostsCount'] as const;

/** The counts an event carries as numbers (any subset of the three keys). */
export function countsIn(payload: Partial<Record<(typeof COUNT_KEYS)[number], unknown>>): Partial<PostCounts> {
  const found: Partial<PostCounts> = {};
  for (const key of COUNT_KEYS) {
    const raw = payload?.[key];
    const value = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : Number.NaN;
    if (raw !== '' && Number.isFinite(value) && value >= 0) found[key] = value;
  }
  return found;
}

/** A list's posts in order (for reducers, listeners and tests; components use `selectListPosts`). */
export const itemsOf = (list: PostList): Post[] => list.items.ids.map((id) => list.items.entities[id]);

type WithPosts = { posts: PostsState };
const listSelectors = {} as Record<ListKey, (state: WithPosts) => Post[]>;
for (const key of LIST_KEYS) listSelectors[key] = postsAdapter.getSelectors((state: WithPosts) => state.posts.lists[key].items).selectAll;

/** A list's posts in order, memoized per list. */
export const selectListPosts = (state: WithPosts, key: ListKey): Post[] => listSelectors[key](state);
