/**
 * The parts of one of the writer's series, in order: moved with "Move up" / "Move down" (focus
 * stays on the part that moved, and the move is announced) or dragged, taken out, and the note
 * "Not visible to readers" on parts readers cannot see. A new order shows at once and is sent in
 * full (`PUT /api/series/{id}/posts`), one request at a time with the latest order; when the
 * server refuses it, the last order it accepted comes back with its message.
 */
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { FormError } from '@/components/form-field';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { putSeries, setParts } from '../my-series-cache';
import { useRemoveSeriesPartMutation, useReorderSeriesPartsMutation } from '../series-api';
import type { ManagedPart, ManagedSeries } from '../series-types';

type Direction = 'up' | 'down';

/** Why readers do not see a part, or null when they do. */
export function hiddenNote(part: ManagedPart): string | null {
  if (part.visible) return null;
  return part.status && part.status !== 'published' ? `Not visible to readers (${part.status})` : 'Not visible to readers';
}

/** `parts` with the one at `from` moved to `to`. */
export function moved<T>(parts: T[], from: number, to: number): T[] {
  const next = [...parts];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

export function PartsEditor({ series }: { series: ManagedSeries }) {
  const dispatch = useAppDispatch();
  const [reorder] = useReorderSeriesPartsMutation();
  const [removePart] = useRemoveSeriesPartMutation();
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const focusAfter = useRef<{ id: string; direction: Direction } | null>(null);
  const lastMoved = useRef<{ id: string; direction: Direction } | null>(null);
  // The order the server last accepted, the order waiting to be sent, and whether one is on its way.
  const confirmed = useRef<ManagedPart[]>(series.parts);
  const waiting = useRef<string[] | null>(null);
  const sending = useRef(false);
  const parts = series.parts;

  useEffect(() => {
    if (!sending.current && !waiting.current) confirmed.current = series.parts;
  }, [series.parts]);

  // Once a move from the keyboard (or its undoing) is drawn, the moved part's button keeps the
  // focus (its other button when the part reached an end).
  useEffect(() => {
    const target = focusAfter.current;
    if (!target || !listRef.current) return;
    focusAfter.current = null;
    const item = listRef.current.querySelector<HTMLElement>(`[data-part-id="${CSS.escape(target.id)}"]`);
    const same = item?.querySelector<HTMLButtonElement>(`[data-move="${target.direction}"]`);
    const other = item?.querySelector<HTMLButtonElement>(`[data-move="${target.direction === 'up' ? 'down' : 'up'}"]`);
    (same && !same.disabled ? same : other)?.focus();
  }, [parts]);

  const send = async () => {
    if (sending.current) return;
    sending.current = true;
    while (waiting.current) {
      const postIds = waiting.current;
      waiting.current = null;
      try {
        const answer = await reorder({ series: series._id, body: { postIds } }).unwrap();
        confirmed.current = answer.series.parts;
        if (!waiting.current) dispatch(putSeries(answer.series));
      } catch (e) {
        waiting.current = null;
        focusAfter.current = lastMoved.current;
        dispatch(setParts(series._id, confirmed.current));
        const message = errorMessage(e, 'Could not save the new order');
        setError(message);
        setAnnouncement('The order was put back.');
      }
    }
    sending.current = false;
  };

  const move = (from: number, to: number, direction?: Direction) => {
    if (to < 0 || to >= parts.length || from === to) return;
    const next = moved(parts, from, to);
    const part = parts[from];
    setError(null);
    lastMoved.current = direction ? { id: part._id, direction } : null;
    focusAfter.current = lastMoved.current;
    dispatch(setParts(series._id, next));
    setAnnouncement(`“${part.title}” moved to position ${to + 1} of ${next.length}.`);
    waiting.current = next.map((p) => p._id);
    void send();
  };

  const remove = async (part: ManagedPart) => {
    setError(null);
    setRemoving(part._id);
    try {
      const answer = await removePart({ series: series._id, postId: part._id }).unwrap();
      dispatch(putSeries(answer.series));
      toast.success(answer.message);
      listRef.current?.closest<HTMLElement>('[data-series-id]')?.querySelector<HTMLElement>('.parts-editor__heading')?.focus();
    } catch (e) {
      setError(errorMessage(e, 'Could not take the post out of the series'));
    } finally {
      setRemoving(null);
    }
  };

  // Dragging: the part is dropped before the item under the pointer's upper half, after its lower half.
  const onDragOver = (event: DragEvent<HTMLLIElement>, index: number) => {
    if (!dragging) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
    const box = event.currentTarget.getBoundingClientRect();
    const at = box.height > 0 && event.clientY > box.top + box.height / 2 ? index + 1 : index;
    if (at !== dropAt) setDropAt(at);
  };
  const onDrop = (event: DragEvent<HTMLOListElement>) => {
    event.preventDefault();
    const from = parts.findIndex((p) => p._id === dragging);
    const at = dropAt;
    setDragging(null);
    setDropAt(null);
    if (from < 0 || at === null) return;
    move(from, at > from ? at - 1 : at);
  };

  const headingId = `parts-${series._id}`;
  return (
    <div className="parts-editor">
      <h3 id={headingId} className="parts-editor__heading" tabIndex={-1}>
        Parts
      </h3>
      {parts.length === 0 ? (
        <p className="muted small">No parts yet: add one of your posts below.</p>
      ) : (
        <>
          <p className="muted small parts-editor__hint" id={`${headingId}-hint`}>
            Drag a part, or use its arrows, to change the order. Readers see the new order at once.
          </p>
          <ol
            ref={listRef}
            className="parts-editor__list"
            aria-labelledby={headingId}
            aria-describedby={`${headingId}-hint`}
            onDragOver={(event) => {
              if (dragging) event.preventDefault();
            }}
            onDrop={onDrop}
          >
            {parts.map((part, index) => {
              const note = hiddenNote(part);
              const dropClass = dragging && dropAt === index ? 'parts-editor__part--drop-before' : dragging && dropAt === index + 1 && index === parts.length - 1 ? 'parts-editor__part--drop-after' : '';
              return (
                <li
                  key={part._id}
                  data-part-id={part._id}
                  className={`parts-editor__part ${dragging === part._id ? 'parts-editor__part--dragging' : ''} ${dropClass}`}
                  draggable
                  onDragStart={(event) => {
                    event.dataTransfer?.setData('text/plain', part._id);
                    if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
                    setDragging(part._id);
                  }}
                  onDragOver={(event) => onDragOver(event, index)}
                  onDragEnd={() => {
                    setDragging(null);
                    setDropAt(null);
                  }}
                >
                  <span className="parts-editor__grip" aria-hidden="true">
                    ⠿
                  </span>
                  <span className="parts-editor__number">Part {index + 1}</span>
                  <span className="parts-editor__title">
                    <Link to={`/post/${encodeURIComponent(part.slug)}`} draggable={false}>
                      {part.title}
                    </Link>
                    {note ? <span className="parts-editor__note">{note}</span> : null}
                  </span>
                  <span className="parts-editor__actions">
                    <button
                      type="button"
                      className="button button--ghost button--small parts-editor__move"
                      data-move="up"
                      aria-label={`Move ${part.title} up`}
                      title="Move up"
                      disabled={index === 0}
                      onClick={() => move(index, index - 1, 'up')}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      className="button button--ghost button--small parts-editor__move"
                      data-move="down"
                      aria-label={`Move ${part.title} down`}
                      title="Move down"
                      disabled={index === parts.length - 1}
                      onClick={() => move(index, index + 1, 'down')}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      className="button button--ghost button--small"
                      aria-label={`Remove ${part.title} from the series`}
                      disabled={removing === part._id}
                      onClick={() => void remove(part)}
                    >
                      {removing === part._id ? 'Removing...' : 'Remove'}
                    </button>
                  </span>
                </li>
              );
            })}
          </ol>
        </>
      )}
      <FormError message={error} />
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}
