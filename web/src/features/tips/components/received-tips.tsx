/**
 * The writer's tips: every tip to their posts (who, which post, the amount, the platform's fee,
 * what they receive, the message and its status), a page at a time, fetched again when one
 * arrives live; each message can be hidden from the supporters list or shown again.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useGetTipsReceivedQuery, usePatchTipsByIdMutation } from '@/api/endpoints';
import { useAppSelector } from '@/app/hooks';
import { FormStatus } from '@/components/form-field';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { formatMoney } from '@/lib/money';
import { TIP_FALLBACK, TIPS_PAGE_SIZE, type Tip } from '../tips-api';
import { selectTipsReceivedLive } from '../tips-slice';
import '../tips.css';
import { Pager } from '../../../components/pager';

const STATUS_CHIPS: Record<string, string> = { succeeded: 'chip--ok', pending: 'chip--info', refunding: 'chip--info', failed: 'chip--danger', refunded: 'chip--muted' };

export function TipStatus({ status }: { status: Tip['status'] }) {
  return <span className={`chip ${STATUS_CHIPS[status] ?? ''}`}>{status}</span>;
}

function HideButton({ tip, onChanged }: { tip: Tip; onChanged: (message: string) => void }) {
  const [patchTip, { isLoading }] = usePatchTipsByIdMutation();
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setError(null);
    try {
      const answer = await patchTip({ id: tip.id, body: { hidden: !tip.hidden } }).unwrap();
      onChanged(answer.message);
    } catch (e) {
      setError(errorMessage(e, TIP_FALLBACK.hide));
    }
  };
  return (
    <>
      <button
        type="button"
        className="button button--small button--ghost"
        disabled={isLoading}
        aria-label={`${tip.hidden ? 'Show' : 'Hide'} the message of ${tip.from?.name ?? 'this reader'}`}
        onClick={() => void toggle()}
      >
        {tip.hidden ? 'Show' : 'Hide'}
      </button>
      {error ? (
        <span className="form-error" role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
}

export function ReceivedTips() {
  const [page, setPage] = useState(1);
  const [notice, setNotice] = useState<string | null>(null);
  const { data, error, isError, refetch } = useGetTipsReceivedQuery({ page: String(page), limit: String(TIPS_PAGE_SIZE) });
  // A tip that arrives live is listed at once.
  const live = useAppSelector(selectTipsReceivedLive);
  const latest = live[0]?.tipId ?? null;
  useEffect(() => {
    if (latest) void refetch();
  }, [latest, refetch]);
  const changed = (message: string) => {
    setNotice(message);
    void refetch();
  };
  return (
    <section className="panel" aria-labelledby="tips-received-title" data-testid="tips-received">
      <h2 id="tips-received-title">Tips received</h2>
      {isError ? (
        <div className="list-state list-state--error" role="alert">
          <span>{errorMessage(error, TIP_FALLBACK.received)}</span>
          <button type="button" className="button button--small button--ghost" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : null}
      {!data && !isError ? <p role="status">Loading...</p> : null}
      <FormStatus message={notice} />
      {data && data.tips.length === 0 ? <p className="muted">No tips yet: readers tip a post from the support card under it.</p> : null}
      {data && data.tips.length > 0 ? (
        <>
          <div className="table-scroll">
            <table className="data-table tips-table">
              <caption className="visually-hidden">Tips received, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">From</th>
                  <th scope="col">Post</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Fee</th>
                  <th scope="col">You receive</th>
                  <th scope="col">Message</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.tips.map((tip) => (
                  <tr key={tip.id} data-testid="tip-received">
                    <td>{formatDate(tip.createdAt)}</td>
                    <td>
                      {tip.from?.name ?? 'Deleted user'}
                      {tip.public ? null : <span className="muted small"> (private)</span>}
                    </td>
                    <td>{tip.post ? <Link to={`/post/${encodeURIComponent(tip.post.slug)}`}>{tip.post.title}</Link> : 'Deleted post'}</td>
                    <td>{formatMoney(tip.amount, tip.currency)}</td>
                    <td>{formatMoney(tip.fee, tip.currency)}</td>
                    <td>{formatMoney(tip.net, tip.currency)}</td>
                    <td className="tips-table__message">
                      {tip.message ? (
                        <>
                          {tip.message}
                          {tip.hidden ? <span className="chip chip--muted">hidden</span> : null}{' '}
                          <HideButton tip={tip} onChanged={changed} />
                        </>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                    <td>
                      <TipStatus status={tip.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} totalPages={data.totalPages} onPage={setPage} label="Tips received" />
        </>
      ) : null}
    </section>
  );
}
