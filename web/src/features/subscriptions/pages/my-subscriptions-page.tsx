/**
 * `/my-subscriptions`: the reader's payments: their subscriptions (running ones first, ended ones
 * on request), then the tips they sent.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { FormError, FormStatus } from '@/components/form-field';
import { Page } from '@/components/page';
import { SentTips } from '@/features/tips';
import { formatMoney, intervalLabel } from '@/lib/money';
import { cancelSubscription, fetchMySubscriptions, selectSubscriptions } from '../subscriptions-slice';
import { standingText } from '../components/reader-plans';
import { TestModeBadge } from '../components/test-mode-badge';

export function MySubscriptionsPage() {
  const dispatch = useAppDispatch();
  const { mySubscriptions, pending, message, error } = useAppSelector(selectSubscriptions);
  const [includeEnded, setIncludeEnded] = useState(false);
  useEffect(() => {
    void dispatch(fetchMySubscriptions({ includeEnded }));
  }, [dispatch, includeEnded]);
  useEffect(() => {
    if (mySubscriptions.stale) void dispatch(fetchMySubscriptions({ includeEnded }));
  }, [dispatch, mySubscriptions.stale, includeEnded]);
  const list = mySubscriptions.value;
  return (
    <Page title="My subscriptions">
      <div className="page-head">
        <label className="checkbox">
          <input type="checkbox" checked={includeEnded} onChange={(e) => setIncludeEnded(e.target.checked)} /> Show ended subscriptions
        </label>
        <TestModeBadge mode={list[0]?.mode} />
      </div>
      <FormStatus message={message} />
      <FormError message={error} />
      {mySubscriptions.status === 'failed' ? (
        <div className="list-state list-state--error" role="alert">
          <span>{mySubscriptions.error}</span>
          <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(fetchMySubscriptions({ includeEnded }))}>
            Try again
          </button>
        </div>
      ) : list.length === 0 ? (
        <p className="muted" role="status">
          {mySubscriptions.status === 'succeeded' ? 'You have no subscriptions. Authors who sell plans show a Subscribe button on their locked posts.' : 'Loading...'}
        </p>
      ) : (
        <ul className="card-list">
          {list.map((s) => (
            <li key={s._id} className="card" data-testid="my-subscription">
              <h2 className="card__title">
                <Link to={`/plans/${s.authorId}`}>
                  {s.planName} · {s.authorName ?? 'Deleted user'}
                </Link>
              </h2>
              <p>
                {formatMoney(s.price, s.currency)} {intervalLabel(s.interval)} · <span className="chip">{s.status}</span>
              </p>
              <p className="muted">{standingText(s)}</p>
              {s.status === 'active' || s.status === 'past_due' ? (
                <button type="button" className="button button--small button--ghost" disabled={Boolean(pending[`cancel:${s._id}`])} onClick={() => void dispatch(cancelSubscription(s._id))}>
                  {pending[`cancel:${s._id}`] ? 'Cancelling...' : 'Cancel'}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <SentTips />
    </Page>
  );
}

export default MySubscriptionsPage;
