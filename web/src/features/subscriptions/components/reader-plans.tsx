/**
 * A reader on an author's `/plans/{id}`: the active plans, their standing with this author, and
 * Subscribe, Cancel, Refund (reason, and the bank details chosen from their saved ones) and
 * Unsubscribe. A money button is disabled while its call is in flight, and the slice drops a
 * second identical call, so a double click never charges or refunds twice.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError, FormStatus } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { formatDate } from '@/lib/format';
import { fetchBankDetails, selectPayments } from '@/features/payments';
import type { Subscription } from '@/types/money';
import {
  cancelSubscription,
  fetchAuthorPlans,
  fetchMySubscriptions,
  fetchSubscriptionStatus,
  refundSubscription,
  selectSubscriptions,
  subscribe,
  unsubscribeAuthor,
} from '../subscriptions-slice';
import { PlanCard } from './plan-card';
import { PrivateFeed } from './private-feed';

/** What a subscription's status means to the reader. */
export function standingText(sub: Pick<Subscription, 'status' | 'currentPeriodEnd' | 'graceEndsAt' | 'hasAccess'> | null): string {
  if (!sub) return 'You are not subscribed to this author.';
  const end = sub.currentPeriodEnd ? formatDate(sub.currentPeriodEnd) : null;
  switch (sub.status) {
    case 'active':
      return `You are subscribed${end ? `; it renews on ${end}` : ''}.`;
    case 'incomplete':
      return 'Your first payment is being confirmed.';
    case 'past_due':
      return `Your last renewal failed; you keep access${sub.graceEndsAt ? ` until ${formatDate(sub.graceEndsAt)}` : ''} while we try again.`;
    case 'cancelled':
      return sub.hasAccess && end ? `Cancelled: you keep access until ${end}, then it ends.` : 'Cancelled.';
    case 'refunded':
      return 'Refunded: your payment was returned and access has ended.';
    case 'expired':
      return 'Your subscription has ended.';
    case 'failed':
      return 'The payment failed; you may subscribe again.';
    default:
      return `Status: ${sub.status}.`;
  }
}

function RefundDialog({ sub, onClose }: { sub: Subscription; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const me = useAppSelector((s) => s.auth.user);
  const { pending, error } = useAppSelector(selectSubscriptions);
  const { bankDetails } = useAppSelector(selectPayments);
  const [reason, setReason] = useState('');
  const [bank, setBank] = useState('');
  const busy = Boolean(pending[`refund:${sub._id}`]);
  useEffect(() => {
    if (me) void dispatch(fetchBankDetails({ userId: me._id }));
  }, [dispatch, me]);
  const saved = bankDetails.value && bankDetails.userId === me?._id ? [bankDetails.value] : [];
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = saved.find((b) => b.paymentId === bank);
    const result = await dispatch(
      refundSubscription({ id: sub._id, reason: reason.trim(), bankDetails: chosen ? { paymentId: chosen.paymentId, accountLast4: chosen.accountLast4, bankName: chosen.bankName } : null }),
    );
    if (refundSubscription.fulfilled.match(result)) onClose();
  };
  return (
    <Modal title="Ask for a refund" labelledBy="refund-title" onClose={onClose}>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <p>The latest payment for {sub.planName} goes back to the card it came from, and access ends at once.</p>
        <div className="field">
          <label htmlFor="refund-reason">Reason</label>
          <textarea id="refund-reason" rows={3} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="refund-bank">Bank details</label>
          <select id="refund-bank" value={bank} onChange={(e) => setBank(e.target.value)}>
            <option value="">None: back to the card</option>
            {saved.map((b) => (
              <option key={b.paymentId} value={b.paymentId}>
                {b.bankName} {b.maskedAccountNumber}
              </option>
            ))}
          </select>
          <small className="muted">{saved.length === 0 ? 'You have no saved bank details.' : 'Card payments are refunded to the card; your bank details are kept for reference.'}</small>
        </div>
        <FormError message={error} />
        <div className="form-actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--danger" disabled={busy || !reason.trim()}>
            {busy ? 'Refunding...' : 'Refund'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function ReaderPlans({ authorId }: { authorId: string }) {
  const dispatch = useAppDispatch();
  const { user, isAuthenticated } = useAppSelector((s) => s.auth);
  const { authorPlans, authorStatus, mySubscriptions, subscribedPlanIds, pending, message, error } = useAppSelector(selectSubscriptions);
  const [refunding, setRefunding] = useState<Subscription | null>(null);
  const [confirmUnsubscribe, setConfirmUnsubscribe] = useState(false);

  useEffect(() => {
    void dispatch(fetchAuthorPlans(authorId));
  }, [dispatch, authorId]);
  useEffect(() => {
    if (!user) return;
    void dispatch(fetchSubscriptionStatus({ userId: user._id, authorId }));
    void dispatch(fetchMySubscriptions());
  }, [dispatch, user, authorId]);
  // Cancel forces a refetch of the subscribed plans.
  useEffect(() => {
    if (mySubscriptions.stale) void dispatch(fetchMySubscriptions());
  }, [dispatch, mySubscriptions.stale]);

  const current = mySubscriptions.value.find((s) => s.authorId === authorId) ?? null;
  const status = authorStatus.value;
  const running = Boolean(status?.isSubscribed);
  const plans = authorPlans.authorId === authorId ? authorPlans.value : [];
  const unsubscribing = Boolean(pending[`unsubscribe:${authorId}`]);

  return (
    <>
      {isAuthenticated ? (
        <section className="panel" aria-labelledby="standing-title" data-testid="standing">
          <h2 id="standing-title">Your subscription</h2>
          {authorStatus.status === 'failed' ? (
            <p className="form-error" role="alert">
              {authorStatus.error}
            </p>
          ) : null}
          <p data-testid="standing-text" data-status={current?.status ?? status?.status ?? 'none'}>
            {current ? `${current.planName}: ` : ''}
            {standingText(current ?? (status?.status ? { status: status.status, currentPeriodEnd: null, graceEndsAt: null, hasAccess: status.isSubscribed } : null))}
          </p>
          {current ? (
            <div className="button-row">
              {current.status === 'active' || current.status === 'past_due' ? (
                <button type="button" className="button button--small button--ghost" disabled={Boolean(pending[`cancel:${current._id}`])} onClick={() => void dispatch(cancelSubscription(current._id))}>
                  {pending[`cancel:${current._id}`] ? 'Cancelling...' : 'Cancel subscription'}
                </button>
              ) : null}
              {current.status === 'active' || current.status === 'cancelled' || current.status === 'past_due' ? (
                <button type="button" className="button button--small button--ghost" onClick={() => setRefunding(current)}>
                  Ask for a refund
                </button>
              ) : null}
              {running ? (
                <button type="button" className="button button--small button--danger" disabled={unsubscribing} onClick={() => setConfirmUnsubscribe(true)}>
                  Unsubscribe from this author
                </button>
              ) : null}
            </div>
          ) : null}
          <FormStatus message={message} />
          {!refunding ? <FormError message={error} /> : null}
        </section>
      ) : null}
      {isAuthenticated && running ? <PrivateFeed authorId={authorId} /> : null}
      {isAuthenticated ? null : (
        <p className="notice" role="note">
          <Link to="/login">Log in</Link> to subscribe.
        </p>
      )}
      <section aria-labelledby="plans-list-title">
        <h2 id="plans-list-title">Plans</h2>
        {authorPlans.status === 'failed' ? (
          <div className="list-state list-state--error" role="alert">
            <span>{authorPlans.error}</span>
            <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(fetchAuthorPlans(authorId))}>
              Try again
            </button>
          </div>
        ) : plans.length === 0 ? (
          <p className="muted" role="status">
            {authorPlans.status === 'succeeded' ? 'This author offers no plans at the moment.' : 'Loading...'}
          </p>
        ) : (
          <ul className="plan-grid">
            {plans.map((plan) => {
              const mine = subscribedPlanIds.includes(plan._id) || (running && current?.planId === plan._id);
              const busy = Boolean(pending[`subscribe:${plan._id}`]);
              return (
                <li key={plan._id}>
                  <PlanCard plan={plan} badges={mine ? <span className="chip chip--ok">subscribed</span> : null}>
                    {isAuthenticated && user?._id !== authorId ? (
                      <button
                        type="button"
                        className="button"
                        disabled={busy || running}
                        aria-describedby={running && !mine ? 'one-plan-note' : undefined}
                        onClick={() => void dispatch(subscribe(plan._id))}
                      >
                        {busy ? 'Subscribing...' : mine ? 'Subscribed' : `Subscribe to ${plan.name}`}
                      </button>
                    ) : null}
                  </PlanCard>
                </li>
              );
            })}
          </ul>
        )}
        {running ? (
          <p id="one-plan-note" className="muted small">
            One subscription per author: cancel or unsubscribe before choosing another plan.
          </p>
        ) : null}
      </section>
      {refunding ? <RefundDialog sub={refunding} onClose={() => setRefunding(null)} /> : null}
      {confirmUnsubscribe && user ? (
        <ConfirmDialog
          title="Unsubscribe from this author?"
          confirmLabel="Unsubscribe"
          danger
          busy={unsubscribing}
          onCancel={() => setConfirmUnsubscribe(false)}
          onConfirm={() => {
            void dispatch(unsubscribeAuthor({ authorId, userId: user._id })).then(() => {
              setConfirmUnsubscribe(false);
              void dispatch(fetchMySubscriptions());
            });
          }}
        >
          <p>Every running subscription to this author is cancelled: no further renewals; access lasts to the end of the paid period.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
