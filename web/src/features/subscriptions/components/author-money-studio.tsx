/**
 * The author's own money studio: eligibility (each criterion against the author's value), plan
 * management (create, edit, activate or deactivate, delete; deleted plans listed too), plan
 * analytics, subscribers, tips (settings and the tips received), earnings and bank details. Tabs
 * are in the address (`?tab=`).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  useGetSubscriptionAuthorByAuthorIdSubscriptionsQuery,
  useGetSubscriptionCheckEligibilityQuery,
  useGetSubscriptionPlansByIdAnalyticsQuery,
} from '@/api/endpoints';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError, FormField, FormStatus } from '@/components/form-field';
import { Modal } from '@/components/modal';
import { BankDetailsPanel, EarningsPanel } from '@/features/payments';
import { TipsStudio } from '@/features/tips';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { formatMoney, minorUnitsPerMajor, parseMoney } from '@/lib/money';
import type { Plan } from '@/types/money';
import { eligibilityWhenUnconfigured, SUBSCRIPTION_FALLBACK, type PlanInput } from '../subscriptions-api';
import { activatePlan, deactivatePlan, deletePlan, fetchMyPlans, savePlan, selectSubscriptions } from '../subscriptions-slice';
import { PlanCard } from './plan-card';

export const STUDIO_TABS = [
  { id: 'plans', label: 'Plans' },
  { id: 'subscribers', label: 'Subscribers' },
  { id: 'tips', label: 'Tips' },
  { id: 'earnings', label: 'Earnings' },
  { id: 'bank-details', label: 'Bank details' },
  { id: 'eligibility', label: 'Eligibility' },
] as const;

const CURRENCIES = ['usd', 'eur', 'gbp', 'inr'];

function EligibilityPanel() {
  const { data, error } = useGetSubscriptionCheckEligibilityQuery();
  const e = data ?? eligibilityWhenUnconfigured(error);
  const failed = Boolean(error) && !e;
  const rows: [string, number, number | undefined, (v: number) => string][] = e
    ? [
        ['Followers', e.followerCount, e.criteria?.minFollowers, (v) => String(v)],
        ['Published posts', e.postCount, e.criteria?.minPosts, (v) => String(v)],
        ['Engagement rate', e.engagementRate, e.criteria?.minEngagementRate, (v) => `${(v * 100).toFixed(2)} %`],
        ['Account age (days)', e.accountAgeDays, e.criteria?.minAccountAgeDays, (v) => String(v)],
      ]
    : [];
  return (
    <section className="panel" aria-labelledby="eligibility-title" data-testid="eligibility">
      <h2 id="eligibility-title">Eligibility to sell plans</h2>
      {failed ? (
        <p className="form-error" role="alert">
          {errorMessage(error, SUBSCRIPTION_FALLBACK.eligibility)}
        </p>
      ) : null}
      {!e && !failed ? <p role="status">Loading...</p> : null}
      {e ? (
        <>
          <p className={`chip ${e.isEligible ? 'chip--ok' : 'chip--info'}`} data-testid="eligible">
            {e.isEligible ? 'You may sell plans' : 'Not eligible yet'}
          </p>
          {e.message ? <p className="muted">{e.message}</p> : null}
          <table className="data-table">
            <caption className="visually-hidden">Criteria and your values</caption>
            <thead>
              <tr>
                <th scope="col">Criterion</th>
                <th scope="col">Needed</th>
                <th scope="col">You</th>
                <th scope="col">Met</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([label, value, needed, fmt]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>{needed === undefined ? '—' : fmt(needed)}</td>
                  <td>{fmt(value)}</td>
                  <td>{needed === undefined || value >= needed ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

function toForm(plan: Plan | null) {
  if (!plan) return { name: '', description: '', price: '', currency: 'usd', interval: 'month', benefits: '' };
  return {
    name: plan.name,
    description: plan.description ?? '',
    price: (plan.price / minorUnitsPerMajor(plan.currency)).toFixed(minorUnitsPerMajor(plan.currency) === 1 ? 0 : 2),
    currency: plan.currency,
    interval: plan.interval,
    benefits: (plan.benefits ?? []).join('\n'),
  };
}

function PlanForm({ plan, onDone }: { plan: Plan | null; onDone: () => void }) {
  const dispatch = useAppDispatch();
  const { pending, error } = useAppSelector(selectSubscriptions);
  const [form, setForm] = useState(toForm(plan));
  const [invalid, setInvalid] = useState<string | null>(null);
  const busy = Boolean(pending[`plan:${plan?._id ?? 'new'}`]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const price = parseMoney(form.price, form.currency);
    if (price === null) {
      setInvalid('Price: an amount such as 4.99');
      return;
    }
    setInvalid(null);
    const input: PlanInput = {
      name: form.name.trim(),
      description: form.description.trim(),
      price,
      currency: form.currency,
      interval: form.interval,
      benefits: form.benefits
        .split('\n')
        .map((b) => b.trim())
        .filter(Boolean),
    };
    const result = await dispatch(savePlan({ planId: plan?._id, input }));
    if (savePlan.fulfilled.match(result)) onDone();
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
      <FormField id="plan-name" label="Name" required maxLength={100} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      <div className="field">
        <label htmlFor="plan-description">Description</label>
        <textarea id="plan-description" rows={3} maxLength={2000} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
      </div>
      <div className="grid-3">
        <FormField id="plan-price" label="Price" inputMode="decimal" required value={form.price} onChange={(e) => setForm({ ...form, price: e.target.value })} />
        <div className="field">
          <label htmlFor="plan-currency">Currency</label>
          <select id="plan-currency" value={form.currency} onChange={(e) => setForm({ ...form, currency: e.target.value })}>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c.toUpperCase()}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="plan-interval">Billed</label>
          <select id="plan-interval" value={form.interval} onChange={(e) => setForm({ ...form, interval: e.target.value })}>
            <option value="month">Monthly</option>
            <option value="year">Yearly</option>
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor="plan-benefits">Benefits (one a line)</label>
        <textarea id="plan-benefits" rows={3} value={form.benefits} onChange={(e) => setForm({ ...form, benefits: e.target.value })} />
      </div>
      <FormError message={invalid ?? error} />
      <div className="form-actions">
        <button type="button" className="button button--ghost" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Saving...' : plan ? 'Save plan' : 'Create plan'}
        </button>
      </div>
    </form>
  );
}

function PlanAnalyticsView({ planId }: { planId: string }) {
  const { currentData: a, error, isFetching } = useGetSubscriptionPlansByIdAnalyticsQuery({ id: planId });
  if (isFetching) return <p role="status">Loading...</p>;
  if (error || !a)
    return (
      <p className="form-error" role="alert">
        {errorMessage(error, SUBSCRIPTION_FALLBACK.analytics)}
      </p>
    );
  return (
    <dl className="facts" aria-label={`Analytics of ${a.planName}`}>
      <dt>Active subscribers</dt>
      <dd>{a.activeSubscribers}</dd>
      <dt>All subscribers</dt>
      <dd>{a.totalSubscribers}</dd>
      <dt>Revenue (net)</dt>
      <dd>{formatMoney(a.revenue.net, a.currency)}</dd>
      <dt>Gross · fees · refunds</dt>
      <dd>
        {formatMoney(a.revenue.gross, a.currency)} · {formatMoney(a.revenue.fees, a.currency)} · {formatMoney(a.revenue.refunds, a.currency)}
      </dd>
      <dt>Renewals · cancellations · refunds</dt>
      <dd>
        {a.renewals} · {a.cancellations} · {a.refunds}
      </dd>
    </dl>
  );
}

function PlansTab({ authorId }: { authorId: string }) {
  const dispatch = useAppDispatch();
  const { myPlans, message, error } = useAppSelector(selectSubscriptions);
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Plan | null>(null);
  const [analytics, setAnalytics] = useState<string | null>(null);
  return (
    <section aria-labelledby="my-plans-title">
      <div className="section-head">
        <h2 id="my-plans-title">My plans</h2>
        <button type="button" className="button button--small" onClick={() => setEditing('new')}>
          New plan
        </button>
      </div>
      <p className="muted small">
        Readers see your active plans at <Link to={`/plans/${authorId}?view=reader`}>your plans page</Link>.
      </p>
      <FormStatus message={message} />
      {!editing ? <FormError message={error} /> : null}
      {myPlans.status === 'failed' ? (
        <p className="form-error" role="alert">
          {myPlans.error}
        </p>
      ) : myPlans.value.length === 0 ? (
        <p className="muted" role="status">
          {myPlans.status === 'succeeded' ? 'No plans yet. Create one to start selling subscriptions.' : 'Loading...'}
        </p>
      ) : (
        <ul className="plan-grid">
          {myPlans.value.map((plan) => (
            <li key={plan._id}>
              <PlanCard
                plan={plan}
                badges={
                  <>
                    <span className={`chip ${plan.isDeleted ? 'chip--danger' : plan.status === 'active' ? 'chip--ok' : 'chip--info'}`}>{plan.isDeleted ? 'deleted' : plan.status}</span>
                    {plan.activeSubscribers !== undefined ? <span className="chip">{plan.activeSubscribers} subscribers</span> : null}
                  </>
                }
              >
                {plan.isDeleted ? (
                  <p className="muted small">Deleted {formatDate(plan.deletedAt)}; subscribers keep access to the end of their period.</p>
                ) : (
                  <div className="button-row">
                    <button type="button" className="button button--small button--ghost" onClick={() => setEditing(plan)}>
                      Edit
                    </button>
                    {plan.status === 'active' ? (
                      <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(deactivatePlan(plan._id))}>
                        Deactivate
                      </button>
                    ) : (
                      <button type="button" className="button button--small button--ghost" onClick={() => void dispatch(activatePlan(plan._id))}>
                        Activate
                      </button>
                    )}
                    <button type="button" className="button button--small button--ghost" aria-expanded={analytics === plan._id} onClick={() => setAnalytics(analytics === plan._id ? null : plan._id)}>
                      Analytics
                    </button>
                    <button type="button" className="button button--small button--danger" onClick={() => setDeleting(plan)}>
                      Delete
                    </button>
                  </div>
                )}
                {analytics === plan._id ? <PlanAnalyticsView planId={plan._id} /> : null}
              </PlanCard>
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <Modal title={editing === 'new' ? 'New plan' : `Edit ${editing.name}`} labelledBy="plan-form-title" onClose={() => setEditing(null)}>
          <PlanForm plan={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        </Modal>
      ) : null}
      {deleting ? (
        <ConfirmDialog title={`Delete ${deleting.name}?`} confirmLabel="Delete plan" danger onCancel={() => setDeleting(null)} onConfirm={() => void dispatch(deletePlan(deleting._id)).then(() => setDeleting(null))}>
          <p>The plan stops taking subscribers. Current subscribers keep access to the end of the period they paid for; their subscriptions then end instead of renewing.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function SubscribersTab({ authorId }: { authorId: string }) {
  const { data, error, isSuccess } = useGetSubscriptionAuthorByAuthorIdSubscriptionsQuery({ authorId });
  const subscribers = { value: data?.subscriptions ?? [], failed: Boolean(error) && !isSuccess };
  return (
    <section aria-labelledby="subscribers-title">
      <h2 id="subscribers-title">Subscribers</h2>
      {subscribers.failed ? (
        <p className="form-error" role="alert">
          {errorMessage(error, SUBSCRIPTION_FALLBACK.subscribers)}
        </p>
      ) : subscribers.value.length === 0 ? (
        <p className="muted" role="status">
          {isSuccess ? 'No subscribers yet.' : 'Loading...'}
        </p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Subscribers</caption>
          <thead>
            <tr>
              <th scope="col">Reader</th>
              <th scope="col">Plan</th>
              <th scope="col">Status</th>
              <th scope="col">Since</th>
              <th scope="col">Period ends</th>
            </tr>
          </thead>
          <tbody>
            {subscribers.value.map((s) => (
              <tr key={s._id}>
                <td>{s.subscriberName ?? 'Deleted user'}</td>
                <td>{s.planName}</td>
                <td>{s.status}</td>
                <td>{formatDate(s.createdAt)}</td>
                <td>{formatDate(s.currentPeriodEnd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function AuthorMoneyStudio({ authorId }: { authorId: string }) {
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  // The plans carry the provider's mode, which the page's test-mode badge shows on every tab.
  useEffect(() => {
    void dispatch(fetchMyPlans());
  }, [dispatch]);
  const tab = STUDIO_TABS.find((t) => t.id === params.get('tab'))?.id ?? 'plans';
  return (
    <div className="studio">
      <div role="tablist" aria-label="Money studio" className="tabs">
        {STUDIO_TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === tab}
            aria-controls="studio-panel"
            tabIndex={t.id === tab ? 0 : -1}
            className={`tab ${t.id === tab ? 'tab--active' : ''}`}
            onClick={() => setParams({ tab: t.id })}
            onKeyDown={(e) => {
              const i = STUDIO_TABS.findIndex((x) => x.id === tab);
              const next = e.key === 'ArrowRight' ? (i + 1) % STUDIO_TABS.length : e.key === 'ArrowLeft' ? (i - 1 + STUDIO_TABS.length) % STUDIO_TABS.length : -1;
              if (next >= 0) {
                setParams({ tab: STUDIO_TABS[next].id });
                document.getElementById(`tab-${STUDIO_TABS[next].id}`)?.focus();
              }
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div id="studio-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {tab === 'plans' ? <PlansTab authorId={authorId} /> : null}
        {tab === 'subscribers' ? <SubscribersTab authorId={authorId} /> : null}
        {tab === 'tips' ? <TipsStudio /> : null}
        {tab === 'earnings' ? <EarningsPanel /> : null}
        {tab === 'bank-details' ? <BankDetailsPanel userId={authorId} /> : null}
        {tab === 'eligibility' ? <EligibilityPanel /> : null}
      </div>
    </div>
  );
}
