/**
 * One of the writer's series on `/my-series`: its title, address, counts and description, Edit
 * (title, description, address, cover), Delete (after asking; its posts stay published), its
 * parts in order and a way to add one of their posts.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-field';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { dropSeries, putSeries } from '../my-series-cache';
import { useDeleteSeriesMutation, useUpdateSeriesMutation } from '../series-api';
import type { ManagedSeries as Series } from '../series-types';
import { AddPart } from './add-part';
import { PartsEditor } from './parts-editor';
import { SeriesForm, type SeriesFields } from './series-form';

export const DELETE_QUESTION = 'Delete this series?';
export const DELETE_EXPLAINED = 'Its posts stay published on their own.';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function DeleteDialog({ series, onClose }: { series: Series; onClose: (deleted: boolean) => void }) {
  const dispatch = useAppDispatch();
  const [remove, { isLoading: busy }] = useDeleteSeriesMutation();
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setError(null);
    try {
      const answer = await remove({ series: series._id }).unwrap();
      dispatch(dropSeries(series._id));
      toast.success(answer.message);
      onClose(true);
    } catch (e) {
      setError(errorMessage(e, 'Could not delete the series'));
    }
  };
  return (
    <ConfirmDialog title={DELETE_QUESTION} confirmLabel="Delete series" danger busy={busy} onConfirm={() => void go()} onCancel={() => onClose(false)}>
      <p>
        “{series.title}” and its order of parts will be deleted. {DELETE_EXPLAINED}
      </p>
      <FormError message={error} />
    </ConfirmDialog>
  );
}

export function ManagedSeries({
  series,
  userId,
  partOf,
  onDeleted,
}: {
  series: Series;
  userId: string;
  /** Which of the writer's series each post is in (post id → series id). */
  partOf: Map<string, string>;
  onDeleted: () => void;
}) {
  const dispatch = useAppDispatch();
  const [update] = useUpdateSeriesMutation();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const hidden = series.parts.filter((p) => !p.visible).length;
  const titleId = `series-${series._id}-title`;

  const save = async (fields: SeriesFields) => {
    try {
      const answer = await update({
        series: series._id,
        body: { title: fields.title, description: fields.description, cover: fields.cover, ...(fields.slug ? { slug: fields.slug } : {}) },
      }).unwrap();
      dispatch(putSeries(answer.series));
      toast.success(answer.message);
      setEditing(false);
      return null;
    } catch (e) {
      return errorMessage(e, 'Could not save the series');
    }
  };

  return (
    <li className="card managed-series" data-series-id={series._id} aria-labelledby={titleId}>
      <div className="card__head">
        <div className="managed-series__heading">
          <h2 id={titleId} className="managed-series__title">
            {series.title}
          </h2>
          <p className="muted small managed-series__facts">
            <Link to={`/series/${encodeURIComponent(series.slug)}`}>/series/{series.slug}</Link>
            {' · '}
            {plural(series.parts.length, 'part', 'parts')}
            {hidden > 0 ? ` (${hidden} not visible to readers)` : ''}
            {' · '}
            {plural(series.followers, 'follower', 'followers')}
          </p>
        </div>
        {editing ? null : (
          <div className="managed-series__actions">
            <button type="button" className="button button--ghost button--small" aria-label={`Edit ${series.title}`} onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="button button--ghost button--small managed-series__delete" aria-label={`Delete ${series.title}`} onClick={() => setDeleting(true)}>
              Delete
            </button>
          </div>
        )}
      </div>
      {editing ? (
        <SeriesForm
          id={`edit-${series._id}`}
          label={`Edit ${series.title}`}
          initial={{ title: series.title, description: series.description, slug: series.slug, cover: series.cover ?? '' }}
          submitLabel="Save changes"
          busyLabel="Saving..."
          onSubmit={save}
          onCancel={() => setEditing(false)}
        />
      ) : series.description ? (
        <p className="managed-series__description">{series.description}</p>
      ) : null}
      <PartsEditor series={series} />
      <AddPart series={series} userId={userId} partOf={partOf} />
      {deleting ? (
        <DeleteDialog
          series={series}
          onClose={(deleted) => {
            setDeleting(false);
            if (deleted) onDeleted();
          }}
        />
      ) : null}
    </li>
  );
}
