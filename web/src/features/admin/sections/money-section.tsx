import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatMoney, intervalLabel } from '@/lib/money';
import { fetchCriteria, fetchPlans, fetchUserEarnings, processPayouts, selectAdmin, togglePlanStatus, updateCriteria } from '../admin-slice';
import type { Plan, SubscriptionCriteria, UserEarning } from '../admin-types';
import { selectSubscriptions, sendRenewalReminders } from '@/features/subscriptions';
import { AdminTable, type Column } from '../components/admin-table';
import { useConfirmedAction } from '../components/use-confirmed-action';

const CRITERIA: [keyof SubscriptionCriteria, string, string][] = [
  ['minFollowers', 'Followers at least', '1'],
  ['minPosts', 'Published posts at least', '1'],
  ['minEngagementRate', 'Engagement rate at least', '0.0001'],
  ['minAccountAgeDays', 'Account age at least (days)', '1'],
];

function Criteria() {
  const dispatch = useAppDispatch();
  const { subscriptionCriteria } = useAppSelector(selectAdmin);
  const [values, setValues] = useState<Record<string, string>>({});
  const [invalid, setInvalid] = useState<string | null>(null);
  useEffect(() => {
    void dispatch(fetchCriteria());
  }, [dispatch]);
  useEffect(() => {
    const c = subscriptionCriteria.value;
    if (c) setValues(Object.fromEntries(CRITERIA.map(([key]) => [key, String(c[key])])));
  }, [subscriptionCriteria.value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const criteria = Object.fromEntries(CRITERIA.map(([key]) => [key, Number(values[key])])) as unknown as SubscriptionCriteria;
    const bad = CRITERIA.find(([key]) => values[key] === undefined || values[key].trim() === '' || !Number.isFinite(criteria[key]) || criteria[key] < 0);
    if (bad) {
      setInvalid(`${bad[1]}: a number of 0 or more`);
      return;
    }
    setInvalid(null);
    void dispatch(updateCriteria(criteria));
  };
  return (
    <form className="form dashboard-block" onSubmit={submit} aria-labelledby="criteria-title">
      <h3 id="criteria-title">Eligibility criteria</h3>
      <p className="muted">An author may sell plans once they meet all four (unless you decided otherwise for them in Users).</p>
      <div className="grid-4">
        {CRITERIA.map(([key, label, step]) => (
          <div className="field" key={key}>
            <label htmlFor={`criteria-${key}`}>{label}</label>
            <input id={`criteria-${key}`} type="number" min={0} step={step} required value={values[key] ?? ''} onChange={(e) => setValues({ ...values, [key]: e.target.value })} />
          </div>
        ))}
      </div>
      {invalid ?? subscriptionCriteria.error ? (
        <p className="form-error" role="alert">
          {invalid ?? subscriptionCriteria.error}
        </p>
      ) : null}
      {subscriptionCriteria.message ? (
        <p className="form-status" role="status">
          {subscriptionCriteria.message}
        </p>
      ) : null}
      <div className="button-row">
        <button type="submit" className="button button--small" disabled={subscriptionCriteria.status === 'loading'}>
          Save criteria
        </button>
      </div>
    </form>
  );
}

/** Reminds readers whose subscriptions renew within the reminder window (once per period each). */
function RenewalReminders() {
  const dispatch = useAppDispatch();
  const { pending, message, error } = useAppSelector(selectSubscriptions);
  const busy = Boolean(pending.reminders);
  return (
    <div className="button-row reminders">
      <button type="button" className="button button--small button--ghost" disabled={busy} onClick={() => void dispatch(sendRenewalReminders())}>
        {busy ? 'Sending reminders...' : 'Send renewal reminders now'}
      </button>
      <span className="muted small">Readers whose subscriptions renew in the next days get one email per period; the daily job sends them too.</span>
      {message ? (
        <p className="form-status" role="status">
          {message}
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Plans() {
  const dispatch = useAppDispatch();
  const { plans } = useAppSelector(selectAdmin);
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => {
    void dispatch(fetchPlans(1));
  }, [dispatch]);
  const columns: Column<Plan>[] = [
    { header: 'Plan', cell: (p) => p.name },
    { header: 'Author', cell: (p) => <Link to={`/plans/${p.authorId}`}>{p.authorName ?? 'Deleted user'}</Link> },
    {
      header: 'Price',
      cell: (p) => (
        <>
          {formatMoney(p.price, p.currency)} {intervalLabel(p.interval)}
        </>
      ),
    },
    {
      header: 'Status',
      cell: (p) => (p.isDeleted ? <span className="chip chip--muted">deleted</span> : <span className={`chip ${p.status === 'active' ? 'chip--ok' : 'chip--muted'}`}>{p.status}</span>),
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (p) =>
        p.isDeleted ? null : (
          <button
            type="button"
            className="button button--small button--ghost"
            disabled={pending === p._id}
            aria-label={`${p.status === 'active' ? 'Deactivate' : 'Activate'} the plan ${p.name}`}
            onClick={() => {
              setPending(p._id);
              void dispatch(togglePlanStatus({ planId: p._id, status: p.status })).then(() => setPending(null));
            }}
          >
            {p.status === 'active' ? 'Deactivate' : 'Activate'}
          </button>
        ),
    },
  ];
  return (
    <section className="dashboard-block" aria-labelledby="plans-title">
      <h3 id="plans-title">Subscription plans</h3>
      <AdminTable
        list={plans}
        label="Plans"
        columns={columns}
        emptyText="No author has created a plan yet."
        onRetry={() => void dispatch(fetchPlans())}
        onPage={(page) => void dispatch(fetchPlans(page))}
      />
      <RenewalReminders />
    </section>
  );
}

const rowKey = (e: UserEarning) => `${e.userId}:${e.currency}`;

function Earnings() {
  const dispatch = useAppDispatch();
  const { userEarnings } = useAppSelector(selectAdmin);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  useEffect(() => {
    void dispatch(fetchUserEarnings(1));
  }, [dispatch]);
  const min = userEarnings.minPayout ?? 0;
  const chosen = userEarnings.items.filter((e) => selected.has(e.userId));
  const toggle = (userId: string) => {
    const next = new Set(selected);
    if (next.has(userId)) next.delete(userId);
    else next.add(userId);
    setSelected(next);
  };
  const payoutConfirm = useConfirmedAction(async ({ ids }: { ids: string[]; authors: UserEarning[] }) => {
    await dispatch(processPayouts(ids));
    setSelected(new Set());
    void dispatch(fetchUserEarnings());
  });
  const columns: Column<UserEarning>[] = [
    {
      header: 'Select',
      hiddenHeader: true,
      cell: (e) => <input type="checkbox" aria-label={`Select ${e.name}`} checked={selected.has(e.userId)} onChange={() => toggle(e.userId)} />,
    },
    { header: 'Author', cell: (e) => <Link to={`/author-profile/${e.userId}`}>{e.name}</Link> },
    { header: 'Gross', cell: (e) => formatMoney(e.gross, e.currency) },
    { header: 'Fees', cell: (e) => formatMoney(e.fees, e.currency) },
    { header: 'Refunds', cell: (e) => formatMoney(e.refunds, e.currency) },
    { header: 'Paid out', cell: (e) => formatMoney(e.paidOut, e.currency) },
    { header: 'Available', cell: (e) => <strong className={e.availableBalance < 0 ? 'warn-text' : undefined}>{formatMoney(e.availableBalance, e.currency)}</strong> },
    { header: 'Bank details', cell: (e) => (e.hasBankDetails ? <span className="chip chip--ok">on file</span> : <span className="chip chip--muted">missing</span>) },
  ];
  const { payout } = userEarnings;
  const names = new Map(userEarnings.items.map((e) => [e.userId, e.name]));
  return (
    <section className="dashboard-block" aria-labelledby="earnings-title">
      <h3 id="earnings-title">Earnings and payouts</h3>
      {min ? <p className="muted">Balances of at least {formatMoney(min, 'usd')} (in each currency’s own units) are paid to the author’s bank details.</p> : null}
      <AdminTable
        list={userEarnings}
        label="Earnings"
        columns={columns}
        rowKey={rowKey}
        emptyText="No author has earned anything yet."
        onRetry={() => void dispatch(fetchUserEarnings())}
        onPage={(page) => void dispatch(fetchUserEarnings(page))}
      />
      <div className="button-row">
        <button type="button" className="button" disabled={selected.size === 0 || payout.status === 'loading'} onClick={() => payoutConfirm.ask({ ids: [...selected], authors: chosen })}>
          Pay out {selected.size > 0 ? `${selected.size} selected` : 'selected authors'}
        </button>
      </div>
      {payout.error ? (
        <p className="form-error" role="alert">
          {payout.error}
        </p>
      ) : null}
      {payout.status === 'succeeded' ? (
        <div role="status" className="retry-results">
          <p className="form-status">{payout.message}</p>
          <table className="data-table data-table--compact" aria-label="Payout results">
            <thead>
              <tr>
                <th scope="col">Author</th>
                <th scope="col">Result</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {payout.results.map((r, i) => (
                <tr key={`${r.userId}:${r.currency ?? i}`}>
                  <td>{names.get(r.userId) ?? r.userId}</td>
                  <td>
                    <span className={`chip ${r.status === 'paid' ? 'chip--ok' : r.status === 'failed' ? 'chip--danger' : 'chip--muted'}`}>{r.status}</span>
                  </td>
                  <td>{r.status === 'paid' ? `${formatMoney(r.amount ?? 0, r.currency)} paid` : (r.reason ?? r.error ?? '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {payoutConfirm.dialog(({ authors }) => ({
        title: 'Pay out these authors?',
        confirmLabel: 'Pay out now',
        body: (
          <>
            <ul className="compact-list">
              {authors.map((e) => (
                <li key={rowKey(e)}>
                  {e.name}: {formatMoney(e.availableBalance, e.currency)} {e.hasBankDetails ? '' : '(no bank details: will be skipped)'}
                </li>
              ))}
            </ul>
            <p>Each author is paid their whole available balance once; running it again pays nothing twice.</p>
          </>
        ),
      }))}
    </section>
  );
}

export function MoneySection() {
  return (
    <>
      <Earnings />
      <Criteria />
      <Plans />
    </>
  );
}
