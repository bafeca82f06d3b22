/**
 * Changes to the writer's list of series (`GET /api/series/mine`) as the server answers them, so
 * the page shows each answer at once without reading the list again. Each returns the thunk's
 * patch result (`.undo()` puts the list back).
 */
import { MY_SERIES, seriesApi } from './series-api';
import type { ManagedPart, ManagedSeries } from './series-types';

/** Puts `series` in place of the one with its id, or first when it is new (the list is newest first). */
export const putSeries = (series: ManagedSeries) =>
  seriesApi.util.updateQueryData(MY_SERIES, undefined, (draft) => {
    const at = draft.series.findIndex((s) => s._id === series._id);
    if (at >= 0) draft.series[at] = series;
    else draft.series.unshift(series);
  });

export const dropSeries = (id: string) =>
  seriesApi.util.updateQueryData(MY_SERIES, undefined, (draft) => {
    draft.series = draft.series.filter((s) => s._id !== id);
  });

/** The parts of one series in a new order. */
export const setParts = (id: string, parts: ManagedPart[]) =>
  seriesApi.util.updateQueryData(MY_SERIES, undefined, (draft) => {
    const series = draft.series.find((s) => s._id === id);
    if (series) series.parts = parts;
  });
