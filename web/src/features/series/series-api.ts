/**
 * The series routes, through the endpoints generated from the server's document
 * (`@/api/endpoints`), under the names this feature uses. Only the series page and the writer's
 * page use them (both load on demand): the post page's series bar reads the post's own answer.
 */
export {
  api as seriesApi,
  useGetSeriesBySeriesQuery as useGetSeriesQuery,
  usePostSeriesBySeriesFollowMutation as useFollowSeriesMutation,
  useDeleteSeriesBySeriesFollowMutation as useUnfollowSeriesMutation,
  usePutSeriesBySeriesFollowAlertsMutation as useSetSeriesAlertsMutation,
  useGetSeriesMineQuery as useGetMySeriesQuery,
  usePostSeriesMutation as useCreateSeriesMutation,
  usePatchSeriesBySeriesMutation as useUpdateSeriesMutation,
  useDeleteSeriesBySeriesMutation as useDeleteSeriesMutation,
  usePostSeriesBySeriesPostsMutation as useAddSeriesPartMutation,
  usePutSeriesBySeriesPostsMutation as useReorderSeriesPartsMutation,
  useDeleteSeriesBySeriesPostsAndPostIdMutation as useRemoveSeriesPartMutation,
  useGetPostUserByUserIdPostsQuery as useGetUserPostsQuery,
} from '@/api/endpoints';

/** The cache entry of a series page (`{ series: slug }`), for `seriesApi.util.updateQueryData`. */
export const SERIES_PAGE = 'getSeriesBySeries' as const;
/** The cache entry of the writer's series. */
export const MY_SERIES = 'getSeriesMine' as const;
