/** The wire shapes of post revisions: aliases of the types generated from the server's document. */
import type { GetPostByIdRevisionsCompareApiResponse, GetPostByIdRevisionsApiResponse, PostPostByIdRevisionsAndRevisionIdRestoreApiResponse } from '@/api/endpoints';
import type { Schemas } from '@/api';

export type RevisionReason = Schemas['Reason'];
export type ChangeSummary = Schemas['ChangeSummary'];
export type RevisionSummary = Schemas['RevisionSummary'];
export type RevisionDetail = Schemas['RevisionDetail'];
export type WordOp = Schemas['WordOp'];
export type BlockDiff = Schemas['BlockDiff'];
export type FieldDiff = Schemas['FieldDiff'];
/** One side of a comparison: a revision, or `current` (the post now). */
export type CompareSide = Schemas['Side'];
export type Comparison = GetPostByIdRevisionsCompareApiResponse;
export type RevisionsAnswer = GetPostByIdRevisionsApiResponse;
export type RestoreAnswer = PostPostByIdRevisionsAndRevisionIdRestoreApiResponse;
