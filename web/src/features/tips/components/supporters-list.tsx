/**
 * A post's supporters: the readers who tipped it and chose to show their name, with their
 * messages (a message the writer hid comes as null), a page at a time ("Show more"). The post's
 * writer and administrators hide or show each message.
 */
import { useEffect, useId, useState } from 'react';
import { useGetPostByIdSupportersQuery, usePatchTipsByIdMutation } from '@/api/endpoints';
import { useAppSelector } from '@/app/hooks';
import { Avatar } from '@/components/avatar';
import { relativeTime } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { SUPPORTERS_PAGE_SIZE, TIP_FALLBACK, type Supporter } from '../tips-api';
import { selectTipSend, selectTipsReceivedLive } from '../tips-slice';
import '../tips.css';

/** What the writer changed here: the tip's message and whether it is hidden, from the answer. */
type Moderated = Record<string, { hidden: boolean; message: string | null }>;

function hiddenOf(s: Supporter): boolean {
  return 'hidden' in s && (s as { hidden?: unknown }).hidden === true;
}

function SupporterItem({ supporter, moderated, canModerate, onModerated }: { supporter: Supporter; moderated: Moderated[string] | undefined; canModerate: boolean; onModerated: (tipId: string, change: Moderated[string]) => void }) {
  const [patchTip, { isLoading }] = usePatchTipsByIdMutation();
  const [error, setError] = useState<string | null>(null);
  const hidden = moderated?.hidden ?? hiddenOf(supporter);
  const message = moderated ? moderated.message : supporter.message;
  const toggle = async () => {
    setError(null);
    try {
      const answer = await patchTip({ id: supporter.tipId, body: { hidden: !hidden } }).unwrap();
      onModerated(supporter.tipId, { hidden: answer.tip.hidden, message: answer.tip.message ?? null });
    } catch (e) {
      setError(errorMessage(e, TIP_FALLBACK.hide));
    }
  };
  return (
    <li className="supporter" data-testid="supporter">
      <Avatar name={supporter.user.name} src={supporter.user.profilePicture} size={32} />
      <div className="supporter__body">
        <p className="supporter__who">
          <strong>{supporter.user.name}</strong> <span className="muted small">{relativeTime(supporter.createdAt)}</span>
          {canModerate && hidden ? <span className="chip chip--muted">message hidden from readers</span> : null}
        </p>
        {message && (!hidden || canModerate) ? <p className={`supporter__message ${hidden ? 'supporter__message--hidden' : ''}`}>{message}</p> : null}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      {canModerate && (message || hidden) ? (
        <button
          type="button"
          className="button button--small button--ghost"
          disabled={isLoading}
          aria-label={`${hidden ? 'Show' : 'Hide'} the message of ${supporter.user.name}`}
          onClick={() => void toggle()}
        >
          {hidden ? 'Show' : 'Hide'}
        </button>
      ) : null}
    </li>
  );
}

function SupportersPage({ postId, page, canModerate, moderated, onModerated }: { postId: string; page: number; canModerate: boolean; moderated: Moderated; onModerated: (tipId: string, change: Moderated[string]) => void }) {
  // The list itself has just asked for this page (its first and its last page): no second request.
  const { data } = useGetPostByIdSupportersQuery({ id: postId, page: String(page), limit: String(SUPPORTERS_PAGE_SIZE) }, { refetchOnMountOrArgChange: false });
  if (!data) return null;
  return (
    <>
      {data.supporters.map((s) => (
        <SupporterItem key={s.tipId} supporter={s} moderated={moderated[s.tipId]} canModerate={canModerate} onModerated={onModerated} />
      ))}
    </>
  );
}

/** `showEmpty`: say there are no supporters yet (where the post can be tipped). */
export function SupportersList({ postId, authorId, showEmpty }: { postId: string; authorId: string | null; showEmpty: boolean }) {
  const titleId = useId();
  const { user, role } = useAppSelector((s) => s.auth);
  const canModerate = Boolean(user && (role === 'admin' || user._id === authorId));
  const [pages, setPages] = useState(1);
  const [moderated, setModerated] = useState<Moderated>({});
  const first = useGetPostByIdSupportersQuery({ id: postId, page: '1', limit: String(SUPPORTERS_PAGE_SIZE) });
  const last = useGetPostByIdSupportersQuery({ id: postId, page: String(pages), limit: String(SUPPORTERS_PAGE_SIZE) });
  const { refetch } = first;
  // A tip sent from this page, or one the writer hears of live, may add a supporter: the list
  // starts again from its first page.
  const sentTipId = useAppSelector((s) => selectTipSend(s, postId).tip?.id ?? null);
  const liveTipId = useAppSelector((s) => selectTipsReceivedLive(s).find((t) => t.postId === postId)?.tipId ?? null);
  useEffect(() => {
    if (!sentTipId && !liveTipId) return;
    setPages(1);
    void refetch();
  }, [sentTipId, liveTipId, refetch]);

  const onModerated = (tipId: string, change: Moderated[string]) => setModerated((m) => ({ ...m, [tipId]: change }));
  const total = first.data?.total ?? 0;
  if (first.isError) {
    return (
      <section className="supporters" aria-labelledby={titleId}>
        <h2 id={titleId}>Supporters</h2>
        <p className="form-error" role="alert">
          {errorMessage(first.error, TIP_FALLBACK.supporters)}
        </p>
      </section>
    );
  }
  if (!first.data || (total === 0 && !showEmpty)) return null;
  const more = last.data ? last.data.page < last.data.totalPages : false;
  return (
    <section className="supporters" aria-labelledby={titleId} data-testid="supporters">
      <h2 id={titleId}>
        Supporters <span className="muted small">({total})</span>
      </h2>
      {total === 0 ? (
        <p className="muted">No supporters yet. Readers who tip this post and choose to show their name appear here.</p>
      ) : (
        <ul className="supporters__list">
          {Array.from({ length: pages }, (_, i) => (
            <SupportersPage key={i + 1} postId={postId} page={i + 1} canModerate={canModerate} moderated={moderated} onModerated={onModerated} />
          ))}
        </ul>
      )}
      {more ? (
        <button type="button" className="button button--small button--ghost" disabled={last.isFetching} onClick={() => setPages(pages + 1)}>
          Show more
        </button>
      ) : null}
    </section>
  );
}
