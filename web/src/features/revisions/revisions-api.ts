/**
 * The revisions routes, through the endpoints generated from the server's document
 * (`@/api/endpoints`), under the names this feature uses.
 */
export {
  api as revisionsApi,
  useGetPostByIdRevisionsQuery as useGetPostRevisionsQuery,
  useGetPostByIdRevisionsAndRevisionIdQuery as useGetPostRevisionQuery,
  useGetPostByIdRevisionsCompareQuery as useGetPostRevisionsCompareQuery,
  usePostPostByIdRevisionsAndRevisionIdRestoreMutation as usePostPostRevisionRestoreMutation,
} from '@/api/endpoints';

/** The cache entry of a post's revision list (for `revisionsApi.util.updateQueryData`). */
export const REVISIONS_LIST = 'getPostByIdRevisions' as const;
