/**
 * The reader's tips: which post and writer each thanked, the amount, its status, and a refund
 * (a reason; the server asks for the password again as for a subscription refund, through the
 * app's step-up dialog) while the tip is within the refund window.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useGetTipsSentQuery, usePostTipsByIdRefundMutation } from '@/api/endpoints';
import { Modal } from '@/components/modal';
import { FormStatus } from '@/components/form-field';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { formatMoney } from '@/lib/money';
import { TIP_FALLBACK, TIP_MESSAGES, TIPS_PAGE_SIZE, type Tip } from '../tips-api';
import { TipStatus } from './received-tips';
import '../tips.css';
import { Pager } from '../../../components/pager';

export const REFUND_REASON_MAX = 500;

function RefundTipDialog({ tip, onClose, onRefunded }: { tip: Tip; onClose: () => void; onRefunded: (message: string) => void }) {
  const [refund, { isLoading }] = usePostTipsByIdRefundMutation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A double click sends one refund: the button is disabled only once the state has changed.
  const sending = useRef(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current || !reason.trim()) return;
    sending.current = true;
    setError(null);
    try {
      const answer = await refund({ id: tip.id, body: { reason: reason.trim() } }).unwrap();
      onRefunded(answer.message || TIP_MESSAGES.refunded);
    } catch (e) {
      setError(errorMessage(e, TIP_FALLBACK.refund));
    } finally {
      sending.current = false;
    }
  };
  return (
    <Modal title="Refund this tip" labelledBy="tip-refund-title" onClose={onClose}>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={isLoading}>
        <p>
          {formatMoney(tip.amount, tip.currency)} goes back to the card it came from{tip.post ? ` and ${tip.author?.name ?? 'the writer'} no longer receives it for “${tip.post.title}”` : ''}.
        </p>
        <div className="field">
          <label htmlFor="tip-refund-reason">Reason</label>
          <textarea id="tip-refund-reason" rows={3} required maxLength={REFUND_REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--danger" disabled={isLoading || !reason.trim()}>
            {isLoading ? 'Refunding...' : 'Refund'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function SentTips() {
  const [page, setPage] = useState(1);
  const [refunding, setRefunding] = useState<Tip | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { data, error, isError, refetch } = useGetTipsSentQuery({ page: String(page), limit: String(TIPS_PAGE_SIZE) });
  return (
    <section className="tips-sent" aria-labelledby="tips-sent-title" data-testid="tips-sent">
      <h2 id="tips-sent-title">Tips you sent</h2>
      <FormStatus message={notice} />
      {isError ? (
        <div className="list-state list-state--error" role="alert">
          <span>{errorMessage(error, TIP_FALLBACK.sent)}</span>
          <button type="button" className="button button--small button--ghost" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : !data ? (
        <p className="muted">Loading...</p>
      ) : data.tips.length === 0 ? (
        <p className="muted">You have not tipped a post yet. Posts whose writers take tips show a “Support this post” card.</p>
      ) : (
        <ul className="card-list">
          {data.tips.map((tip) => (
            <li key={tip.id} className="card" data-testid="tip-sent">
              <h3 className="card__title">
                {formatMoney(tip.amount, tip.currency)} to {tip.author?.name ?? 'Deleted user'}
                {tip.post ? (
                  <>
                    {' '}
                    for <Link to={`/post/${encodeURIComponent(tip.post.slug)}`}>{tip.post.title}</Link>
                  </>
                ) : null}
              </h3>
              <p>
                {formatDate(tip.createdAt)} · <TipStatus status={tip.status} /> {tip.public ? 'Your name is on the supporters list.' : 'Private.'}
              </p>
              {tip.message ? <p className="card__text">“{tip.message}”</p> : null}
              {tip.status === 'succeeded' ? (
                <div className="button-row">
                  <button
                    type="button"
                    className="button button--small button--ghost"
                    aria-label={`Refund ${formatMoney(tip.amount, tip.currency)} to ${tip.author?.name ?? 'Deleted user'}`}
                    onClick={() => setRefunding(tip)}
                  >
                    Refund
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {data ? <Pager page={page} totalPages={data.totalPages} onPage={setPage} label="Tips you sent" /> : null}
      {refunding ? (
        <RefundTipDialog
          tip={refunding}
          onClose={() => setRefunding(null)}
          onRefunded={(message) => {
            setRefunding(null);
            setNotice(message);
            void refetch();
          }}
        />
      ) : null}
    </section>
  );
}
