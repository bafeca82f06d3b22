import type { GetPostSearchPostSearchApiResponse, GetPostSearchUsersApiResponse, GetPublicSearchPostsApiResponse } from '@/api/endpoints';
import { http } from '@/lib/http';
import type { Post, UserSummary } from '@/types/entities';

export const SEARCH_PAGE_SIZE = 12;
export const SEARCH_FALLBACK = {
  posts: 'Failed to load search results',
  publicPosts: 'Failed to search public posts',
  users: 'User search failed',
} as const;

export interface PostPage {
  posts: Post[];
  total: number;
}

export const searchApi = {
  /** Signed-in search; `after` is the createdAt of the last post received. */
  posts: async (query: string, after?: string): Promise<PostPage> => {
    const r = await http.get<GetPostSearchPostSearchApiResponse>('/post/search-post/search', SEARCH_FALLBACK.posts, {
      query,
      limit: SEARCH_PAGE_SIZE,
      after,
    });
    return { posts: r?.posts ?? [], total: r?.total ?? 0 };
  },
  publicPosts: async (query: string, page = 1): Promise<PostPage> => {
    const r = await http.get<GetPublicSearchPostsApiResponse>('/public/search-posts', SEARCH_FALLBACK.publicPosts, {
      query,
      page,
      limit: SEARCH_PAGE_SIZE,
    });
    return { posts: r?.posts ?? [], total: r?.total ?? 0 };
  },
  users: async (query: string): Promise<UserSummary[]> => {
    const r = await http.get<GetPostSearchUsersApiResponse>('/post/search-users', SEARCH_FALLBACK.users, { query });
    return r?.users ?? [];
  },
};
