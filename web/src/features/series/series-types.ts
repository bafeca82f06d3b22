/** The wire shapes of series: aliases of the types generated from the server's document. */
import type { Schemas } from '@/api';

/** A series as readers see it. */
export type SeriesView = Schemas['SeriesView'];
/** A series as its writer manages it: the readers' view and every part, visible or not. */
export type ManagedSeries = Schemas['ManagedSeries'];
export type ManagedPart = Schemas['ManagedPart'];
/** A visible part, numbered, as the series page lists it. */
export type PartView = Schemas['PartView'];
/** A post's place in its series (on the post's own answer). */
export type SeriesPlace = Schemas['SeriesPlace'];
export type PartLink = Schemas['PartLink'];
