/**
 * `/my-series`: the writer's series, newest first (`GET /api/series/mine`): creating one (title,
 * description, an address of their choosing or one made from the title), and for each its
 * changes, deletion, parts in order (moved by keyboard or by dragging) and posts to add.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { ManagedSeries } from '../components/managed-series';
import { SeriesForm, type SeriesFields } from '../components/series-form';
import { putSeries } from '../my-series-cache';
import { useCreateSeriesMutation, useGetMySeriesQuery } from '../series-api';
import '../series.css';

export const NO_SERIES = 'You have no series yet';

function CreateSeries() {
  const dispatch = useAppDispatch();
  const [create] = useCreateSeriesMutation();
  const [open, setOpen] = useState(false);
  const submitNew = async (fields: SeriesFields) => {
    try {
      const answer = await create({
        body: { title: fields.title, description: fields.description, ...(fields.slug ? { slug: fields.slug } : {}), ...(fields.cover ? { cover: fields.cover } : {}) },
      }).unwrap();
      dispatch(putSeries(answer.series));
      toast.success(answer.message);
      setOpen(false);
      return null;
    } catch (e) {
      return errorMessage(e, 'Could not create the series');
    }
  };
  if (!open) {
    return (
      <div className="form-actions form-actions--start">
        <button type="button" className="button" onClick={() => setOpen(true)}>
          New series
        </button>
      </div>
    );
  }
  return (
    <section className="card my-series__new" aria-labelledby="new-series-heading">
      <h2 id="new-series-heading" className="my-series__new-title">
        New series
      </h2>
      <SeriesForm id="new-series" label="New series" submitLabel="Create series" busyLabel="Creating..." onSubmit={submitNew} onCancel={() => setOpen(false)} resetOnSuccess />
    </section>
  );
}

export default function MySeriesPage() {
  const userId = useAppSelector((state) => state.auth.user?._id ?? '');
  const { data, error, isError, refetch } = useGetMySeriesQuery();
  const [deleted, setDeleted] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const list = data?.series;

  // A deleted series' buttons are gone: focus goes to the list's heading.
  useEffect(() => {
    if (deleted > 0) headingRef.current?.focus();
  }, [deleted]);

  // Which series each post is in: a post belongs to one series.
  const partOf = useMemo(() => new Map((list ?? []).flatMap((s) => s.parts.map((p) => [p._id, s._id] as const))), [list]);

  let body;
  if (isError && !list) {
    body = (
      <p className="form-error" role="alert">
        {errorMessage(error, 'Could not load your series')}{' '}
        <button type="button" className="link-button" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  } else if (!list) {
    body = (
      <p className="muted" role="status">
        Loading your series...
      </p>
    );
  } else if (list.length === 0) {
    body = (
      <p className="feed-state muted" data-testid="no-series">
        {NO_SERIES}. A series keeps posts in order, as parts, for readers to follow from the first to the last.
      </p>
    );
  } else {
    body = (
      <ul className="card-list my-series__list" aria-labelledby="my-series-list">
        {list.map((series) => (
          <ManagedSeries key={series._id} series={series} userId={userId} partOf={partOf} onDeleted={() => setDeleted((n) => n + 1)} />
        ))}
      </ul>
    );
  }

  return (
    <Page title="Your series">
      <p className="muted">
        Put your posts in order as the parts of a series. Readers see its published parts, numbered, with the previous and next part on each, and can
        follow the series to hear of each new part.
      </p>
      <CreateSeries />
      <h2 id="my-series-list" ref={headingRef} tabIndex={-1} className="my-series__count">
        {list && list.length > 0 ? (list.length === 1 ? '1 series' : `${list.length} series`) : 'Series'}
      </h2>
      {body}
    </Page>
  );
}
