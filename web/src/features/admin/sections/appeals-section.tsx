import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { TabList } from '@/components/tab-list';
import { relativeTime } from '@/lib/format';
import { ADMIN_FALLBACK } from '../admin-api';
import { APPEAL_FILTERS, APPEAL_REPLY_MAX, decideAppeal, fetchAppeals, selectAdmin } from '../admin-slice';
import type { AdminAppeal, AppealDecision, AppealFilter, AppealStatus } from '../admin-types';
import { ListState } from '../components/list-state';
import { PinnedVersion } from '../components/pinned-version';
import { useConfirmedAction } from '../components/use-confirmed-action';
import { Pager } from '../../../components/pager';

const FILTER_LABELS: Record<AppealFilter, string> = { pending: 'Pending', decided: 'Decided', all: 'All' };

const STATUS_CHIPS: Record<AppealStatus, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'chip--info' },
  accepted: { label: 'Accepted', className: 'chip--ok' },
  rejected: { label: 'Rejected', className: 'chip--danger' },
};

/** The panel of a filter's tab (`TabList` names it `panel-{id}`). */
const tabId = (filter: AppealFilter) => `appeals-${filter}`;

/** "3 appeals waiting", "1 decided appeal", "12 appeals". */
export function appealsCount(total: number, filter: AppealFilter) {
  const noun = total === 1 ? 'appeal' : 'appeals';
  if (filter === 'pending') return `${total} ${noun} waiting`;
  if (filter === 'decided') return `${total} decided ${noun}`;
  return `${total} ${noun}`;
}

/** Who decided an appeal, when, and the reply the author got. */
function Decision({ appeal }: { appeal: AdminAppeal }) {
  if (appeal.status === 'pending') return null;
  return (
    <div className="appeal__decision" tabIndex={-1}>
      <p className="muted small">
        {appeal.status === 'accepted' ? 'Block lifted' : 'Kept blocked'} by {appeal.decidedBy?.name ?? 'an administrator'}
        {appeal.decidedAt ? (
          <>
            {' '}
            · <time dateTime={appeal.decidedAt}>{relativeTime(appeal.decidedAt)}</time>
          </>
        ) : null}
        {' · '}
        {appeal.postBlocked ? 'the post is blocked now' : 'the post is visible now'}
      </p>
      {appeal.reply ? (
        <blockquote className="card__reply">
          <strong className="small">Reply to the author</strong>
          <p>{appeal.reply}</p>
        </blockquote>
      ) : (
        <p className="muted small">No reply was sent with the decision.</p>
      )}
    </div>
  );
}

/** An appeal with the section's reply for it, its last refusal, and how to decide it. */
interface AppealProps {
  appeal: AdminAppeal;
  reply: string;
  onReply: (text: string) => void;
  refusal: string | null;
  onDecide: (decision: AppealDecision) => Promise<unknown>;
}

/**
 * Lifting the block or keeping it, with an optional reply; asks first. The reply is the section's
 * (`reply`, `onReply`), so a refusal never loses it.
 */
function DecisionForm({
  appeal,
  reply,
  onReply,
  refusal,
  onDecide,
}: AppealProps) {
  const id = useId();
  const decision = useConfirmedAction<AppealDecision>(onDecide);
  const author = appeal.author?.name || 'the author';
  const withReply = reply.trim() ? ' with your reply' : '';
  return (
    <form className="form appeal__form" aria-label={`Decide the appeal on “${appeal.postTitle}”`} onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label htmlFor={`${id}-reply`}>
          Reply to the author <span className="muted small">(optional)</span>
        </label>
        <textarea id={`${id}-reply`} rows={3} maxLength={APPEAL_REPLY_MAX} value={reply} aria-describedby={`${id}-count`} onChange={(e) => onReply(e.target.value)} />
        <small id={`${id}-count`} className="muted">
          {reply.length} / {APPEAL_REPLY_MAX}
        </small>
      </div>
      {refusal ? (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      ) : null}
      <div className="button-row">
        <button type="button" className="button button--small" aria-haspopup="dialog" disabled={decision.busy} onClick={() => decision.ask('accept')}>
          Lift the block
        </button>
        <button type="button" className="button button--small button--danger-ghost" aria-haspopup="dialog" disabled={decision.busy} onClick={() => decision.ask('reject')}>
          Keep blocked
        </button>
      </div>
      {decision.dialog((choice) =>
        choice === 'accept'
          ? {
              title: `Lift the block on “${appeal.postTitle}”?`,
              confirmLabel: 'Lift the block',
              body: <p>The post becomes visible again and {author} is told{withReply}.</p>,
            }
          : {
              title: `Keep “${appeal.postTitle}” blocked?`,
              confirmLabel: 'Keep blocked',
              danger: true,
              body: <p>The post stays blocked and {author} is told{withReply}.</p>,
            },
      )}
    </form>
  );
}

function AppealCard({
  appeal,
  reply,
  onReply,
  refusal,
  onDecide,
}: AppealProps) {
  const chip = STATUS_CHIPS[appeal.status as AppealStatus] ?? { label: appeal.status, className: '' };
  const pending = appeal.status === 'pending';
  return (
    <li className={`card ${pending ? 'card--unread' : ''}`} data-testid={`appeal-${appeal._id}`}>
      <div className="card__head">
        <div>
          <strong>{appeal.postSlug ? <Link to={`/post/${encodeURIComponent(appeal.postSlug)}`}>{appeal.postTitle}</Link> : appeal.postTitle}</strong>
          <div className="muted small">
            appealed by {appeal.author ? <Link to={`/author-profile/${appeal.author._id}`}>{appeal.author.name}</Link> : 'a former user'} ·{' '}
            <time dateTime={appeal.createdAt}>{relativeTime(appeal.createdAt)}</time>
          </div>
        </div>
        <span className={`chip ${chip.className}`}>{chip.label}</span>
      </div>
      <p className="card__text">{appeal.message}</p>
      <PinnedVersion kind="appeal" postId={appeal.postId} postTitle={appeal.postTitle} revisionId={appeal.revisionId} editedSince={appeal.editedSince} />
      <Decision appeal={appeal} />
      {pending ? <DecisionForm appeal={appeal} reply={reply} onReply={onReply} refusal={refusal} onDecide={onDecide} /> : null}
    </li>
  );
}

function without<T>(all: Record<string, T>, id: string): Record<string, T> {
  const rest = { ...all };
  delete rest[id];
  return rest;
}

interface Refusal {
  message: string;
  postTitle: string;
}

export function AppealsSection() {
  const dispatch = useAppDispatch();
  const { appeals } = useAppSelector(selectAdmin);
  const { filter, changes } = appeals;
  // Typed replies and refusals by appeal, kept here so neither is lost when a card goes.
  const [replies, setReplies] = useState<Record<string, string>>({});
  const [refusals, setRefusals] = useState<Record<string, Refusal>>({});
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  const countRef = useRef<HTMLParagraphElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    void dispatch(fetchAppeals({ page: 1 }));
  }, [dispatch]);

  // A live arrival or decision: the current page again.
  const seenChanges = useRef(changes);
  useEffect(() => {
    if (seenChanges.current === changes) return;
    seenChanges.current = changes;
    void dispatch(fetchAppeals());
  }, [dispatch, changes]);

  // The last card of the last page decided: the page before.
  const { items, page, totalPages, status } = appeals;
  useEffect(() => {
    if (status === 'succeeded' && items.length === 0 && page > 1 && page > totalPages) void dispatch(fetchAppeals({ page: Math.max(1, totalPages) }));
  }, [dispatch, status, items.length, page, totalPages]);

  // After a decision the buttons that were pressed are gone: focus goes to the card's decision,
  // or to the count line when the card left the list.
  useEffect(() => {
    if (!focusAfter) return;
    setFocusAfter(null);
    const card = Array.from(listRef.current?.children ?? []).find((li) => li.getAttribute('data-testid') === `appeal-${focusAfter}`);
    const decided = card?.querySelector<HTMLElement>('.appeal__decision');
    (decided ?? countRef.current)?.focus();
  }, [focusAfter]);

  const setReply = (id: string, text: string) => setReplies((all) => ({ ...all, [id]: text }));
  const forget = (id: string) => {
    setReplies((all) => without(all, id));
    setRefusals((all) => without(all, id));
  };

  const decide = async (appeal: AdminAppeal, decision: AppealDecision) => {
    const result = await dispatch(decideAppeal({ id: appeal._id, decision, reply: replies[appeal._id] ?? '' }));
    if (decideAppeal.fulfilled.match(result)) {
      forget(appeal._id);
      setFocusAfter(appeal._id);
      return;
    }
    setRefusals((all) => ({ ...all, [appeal._id]: { message: result.payload ?? ADMIN_FALLBACK.decideAppeal, postTitle: appeal.postTitle } }));
    // What refused it (another administrator deciding first) is likely on the list by now.
    void dispatch(fetchAppeals());
  };

  const choose = (id: string) => {
    const next = APPEAL_FILTERS.find((f) => tabId(f) === id);
    if (next && next !== filter) void dispatch(fetchAppeals({ filter: next, page: 1 }));
  };

  // Refused decisions whose appeal is no longer waiting here: said above the list, with the reply.
  const waiting = new Set(items.filter((a) => a.status === 'pending').map((a) => a._id));
  const stranded = Object.entries(refusals).filter(([id]) => !waiting.has(id));

  return (
    <>
      <TabList label="Appeals to show" tabs={APPEAL_FILTERS.map((f) => ({ id: tabId(f), label: FILTER_LABELS[f] }))} active={tabId(filter)} onChoose={choose} />
      <div role="tabpanel" id={`panel-${tabId(filter)}`} aria-labelledby={`tab-${tabId(filter)}`} className="appeals">
        <p className="muted list-count" ref={countRef} tabIndex={-1}>
          {appealsCount(appeals.total, filter)} · new ones appear here as they arrive
        </p>
        {stranded.map(([id, refusal]) => (
          <div key={id} className="appeal__refusal">
            <p className="form-error" role="alert">
              “{refusal.postTitle}”: {refusal.message}
            </p>
            {replies[id]?.trim() ? (
              <blockquote className="card__reply">
                <strong className="small">Your reply, not sent</strong>
                <p>{replies[id]}</p>
              </blockquote>
            ) : null}
            <button type="button" className="button button--small button--ghost" onClick={() => forget(id)}>
              Dismiss
            </button>
          </div>
        ))}
        <ListState
          status={status}
          error={appeals.error}
          count={items.length}
          emptyText={filter === 'pending' ? 'No appeals are waiting.' : 'No appeals yet.'}
          onRetry={() => void dispatch(fetchAppeals())}
        />
        <ul className="card-list" aria-label="Appeals" ref={listRef}>
          {items.map((a) => (
            <AppealCard
              key={a._id}
              appeal={a}
              reply={replies[a._id] ?? ''}
              onReply={(text) => setReply(a._id, text)}
              refusal={refusals[a._id]?.message ?? null}
              onDecide={(decision) => decide(a, decision)}
            />
          ))}
        </ul>
        <Pager label="Appeals" page={page} totalPages={totalPages} onPage={(p) => void dispatch(fetchAppeals({ page: p }))} disabled={status === 'loading'} />
      </div>
    </>
  );
}
