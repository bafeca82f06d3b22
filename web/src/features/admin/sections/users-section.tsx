import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDate } from '@/lib/format';
import {
  checkUserEligibility,
  deleteUser,
  fetchUsers,
  grantSubscriptionAccess,
  milestonesCleared,
  overrideMilestones,
  resetMilestones,
  selectAdmin,
  toggleBlockUser,
  toggleUserEligibility,
  toggleUserRole,
  updateUserOverride,
  userQueryChanged,
} from '../admin-slice';
import type { AdminUser, MilestoneOverride } from '../admin-types';
import { AdminTable, type Column } from '../components/admin-table';
import { useConfirmedAction } from '../components/use-confirmed-action';
import { SearchSortForm } from '../components/search-sort-form';

const SORT_FIELDS = [
  ['name', 'Name'],
  ['email', 'Email'],
  ['createdAt', 'Joined'],
  ['role', 'Role'],
  ['totalPosts', 'Posts'],
  ['blocked', 'Blocked'],
] as const;

const MILESTONES: [keyof MilestoneOverride, string, string][] = [
  ['followerCount', 'Followers', '1'],
  ['postCount', 'Published posts', '1'],
  ['engagementRate', 'Engagement rate', '0.0001'],
  ['accountAgeDays', 'Account age (days)', '1'],
];

function EligibilityPanel({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const { userEligibility, overrideInfo } = useAppSelector(selectAdmin);
  const [busy, setBusy] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const panelRef = useRef<HTMLElement>(null);

  useEffect(() => {
    void dispatch(checkUserEligibility(user._id));
  }, [dispatch, user._id]);
  // The panel opens below the table: bring it into view and move focus to it; focus goes back to
  // the button that opened it when it closes.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panelRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    panelRef.current?.focus({ preventScroll: true });
    return () => {
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, [user._id]);
  useEffect(() => {
    const m = overrideInfo?.milestoneOverride;
    setValues(Object.fromEntries(MILESTONES.map(([key]) => [key, m?.[key] === null || m?.[key] === undefined ? '' : String(m[key])])));
  }, [overrideInfo]);

  const run = async (action: Promise<unknown>) => {
    setBusy(true);
    await action;
    setBusy(false);
  };
  const e = userEligibility.userId === user._id ? userEligibility.value : null;
  const info = overrideInfo;
  const saveMilestones = (event: FormEvent) => {
    event.preventDefault();
    const body: Partial<MilestoneOverride> = {};
    for (const [key] of MILESTONES) {
      const text = (values[key] ?? '').trim();
      body[key] = text === '' ? null : Number(text);
    }
    void run(dispatch(overrideMilestones({ userId: user._id, values: body })));
  };
  return (
    <section ref={panelRef} tabIndex={-1} className="panel eligibility-panel" aria-labelledby="eligibility-title" data-testid="eligibility-panel">
      <div className="panel__header">
        <h3 id="eligibility-title">Subscription eligibility of {user.name}</h3>
        <button type="button" className="button button--small button--ghost" onClick={onClose}>
          Close
        </button>
      </div>
      {userEligibility.status === 'loading' && !e ? <p role="status">Checking...</p> : null}
      {userEligibility.error ? (
        <p className="form-error" role="alert">
          {userEligibility.error}
        </p>
      ) : null}
      {userEligibility.message ? (
        <p className="form-status" role="status">
          {userEligibility.message}
        </p>
      ) : null}
      {e ? (
        <>
          <p>
            <strong className={e.isEligible ? 'ok-text' : 'warn-text'}>{e.isEligible ? 'Eligible' : 'Not eligible'}</strong>
            {e.message ? <span className="muted"> — {e.message}</span> : null}
          </p>
          <table className="data-table data-table--compact">
            <thead>
              <tr>
                <th scope="col">Criterion</th>
                <th scope="col">Needed</th>
                <th scope="col">{user.name}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Followers</th>
                <td>{e.criteria?.minFollowers ?? '—'}</td>
                <td>{e.followerCount}</td>
              </tr>
              <tr>
                <th scope="row">Published posts</th>
                <td>{e.criteria?.minPosts ?? '—'}</td>
                <td>{e.postCount}</td>
              </tr>
              <tr>
                <th scope="row">Engagement rate</th>
                <td>{e.criteria?.minEngagementRate ?? '—'}</td>
                <td>{e.engagementRate}</td>
              </tr>
              <tr>
                <th scope="row">Account age (days)</th>
                <td>{e.criteria?.minAccountAgeDays ?? '—'}</td>
                <td>{e.accountAgeDays}</td>
              </tr>
            </tbody>
          </table>
        </>
      ) : null}
      {info ? (
        <div className="switches">
          <p className="muted">
            {info.bypassSubscriptionCriteria
              ? `Your decision stands instead of the criteria: ${info.isEligibleForSubscription ? 'may sell plans' : 'may not sell plans'}.`
              : 'The criteria decide.'}
          </p>
          <div className="button-row">
            <button type="button" className="button button--small" disabled={busy} onClick={() => void run(dispatch(toggleUserEligibility({ userId: user._id, enable: !(info.bypassSubscriptionCriteria && info.isEligibleForSubscription) })))}>
              {info.bypassSubscriptionCriteria && info.isEligibleForSubscription ? 'Turn selling off' : 'Allow selling plans'}
            </button>
            <button type="button" className="button button--small button--ghost" disabled={busy} onClick={() => void run(dispatch(grantSubscriptionAccess({ userId: user._id, grant: true })))}>
              Grant access
            </button>
            <button
              type="button"
              className="button button--small button--ghost"
              disabled={busy || !info.bypassSubscriptionCriteria}
              onClick={() => void run(dispatch(updateUserOverride({ userId: user._id, bypassSubscriptionCriteria: false })))}
            >
              Let the criteria decide
            </button>
          </div>
        </div>
      ) : null}
      {info ? (
        <form className="form milestone-form" onSubmit={saveMilestones} aria-labelledby="milestones-title">
          <h4 id="milestones-title">Milestone override</h4>
          <p className="muted">A value here replaces the user’s own figure in the check. Leave a field empty to use the real figure.</p>
          <div className="grid-4">
            {MILESTONES.map(([key, label, step]) => (
              <div className="field" key={key}>
                <label htmlFor={`milestone-${key}`}>{label}</label>
                <input id={`milestone-${key}`} type="number" min={0} step={step} value={values[key] ?? ''} onChange={(ev) => setValues({ ...values, [key]: ev.target.value })} />
              </div>
            ))}
          </div>
          <div className="button-row">
            <button type="submit" className="button button--small" disabled={busy}>
              Save override
            </button>
            <button
              type="button"
              className="button button--small button--ghost"
              disabled={busy}
              onClick={() => {
                dispatch(milestonesCleared());
                void run(dispatch(resetMilestones(user._id)));
              }}
            >
              Reset milestones
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

export function UsersSection() {
  const dispatch = useAppDispatch();
  const me = useAppSelector((state) => state.auth.user);
  const { users } = useAppSelector(selectAdmin);
  const [eligibilityOf, setEligibilityOf] = useState<AdminUser | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const deletion = useConfirmedAction(async (user: AdminUser) => {
    const result = await dispatch(deleteUser(user._id));
    // The page may now be short: read it again (or the one before, if it is now beyond the end).
    if (deleteUser.fulfilled.match(result)) void dispatch(fetchUsers({ page: Math.min(users.page, Math.max(1, users.totalPages)) }));
  });

  useEffect(() => {
    void dispatch(fetchUsers());
  }, [dispatch, users.query]);

  const act = async (id: string, action: Promise<unknown>) => {
    setPending(id);
    await action;
    setPending(null);
  };

  const columns: Column<AdminUser>[] = [
    {
      header: 'User',
      cell: (u) => (
        <>
          <Link to={`/author-profile/${u._id}`}>{u.name}</Link>
          <div className="muted small">{u.email}</div>
        </>
      ),
    },
    { header: 'Role', cell: (u) => (u.role === 'admin' ? <span className="chip chip--info">admin</span> : 'user') },
    {
      header: 'Status',
      cell: (u) => (
        <>
          {u.blocked ? <span className="chip chip--danger">blocked</span> : <span className="chip">active</span>}
          {u.isAccountVerified ? null : <span className="chip chip--muted">unverified</span>}
        </>
      ),
    },
    { header: 'Posts', cell: (u) => u.totalPosts ?? 0 },
    {
      header: 'Plans',
      cell: (u) => (
        <>
          {u.isEligibleForSubscription ? <span className="chip chip--ok">eligible</span> : <span className="chip chip--muted">not eligible</span>}
          {u.bypassSubscriptionCriteria ? <span className="chip chip--info">override</span> : null}
        </>
      ),
    },
    { header: 'Joined', cell: (u) => formatDate(u.createdAt) },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (u) => {
        const self = u._id === me?._id;
        return (
          <div className="row-actions">
            <button
              type="button"
              className="button button--small button--ghost"
              disabled={self || pending === u._id}
              aria-label={`${u.blocked ? 'Unblock' : 'Block'} ${u.name}`}
              onClick={() => void act(u._id, dispatch(toggleBlockUser(u._id)))}
            >
              {u.blocked ? 'Unblock' : 'Block'}
            </button>
            <button
              type="button"
              className="button button--small button--ghost"
              disabled={self || pending === u._id}
              aria-label={`${u.role === 'admin' ? 'Remove admin' : 'Make admin'}: ${u.name}`}
              onClick={() => void act(u._id, dispatch(toggleUserRole(u._id)))}
            >
              {u.role === 'admin' ? 'Remove admin' : 'Make admin'}
            </button>
            <button type="button" className="button button--small button--ghost" aria-label={`Eligibility of ${u.name}`} onClick={() => setEligibilityOf(u)}>
              Eligibility
            </button>
            <button type="button" className="button button--small button--danger-ghost" disabled={self} aria-label={`Delete ${u.name}`} onClick={() => deletion.ask(u)}>
              Delete
            </button>
          </div>
        );
      },
    },
  ];

  return (
    <>
      <SearchSortForm
        idPrefix="user"
        label="Search users"
        placeholder="Name or email"
        initialSearch={users.query.search}
        sortFields={SORT_FIELDS}
        sortField={users.query.sortField}
        sortOrder={users.query.sortOrder}
        onSearch={(search) => dispatch(userQueryChanged({ search }))}
        onSort={(change) => dispatch(userQueryChanged(change))}
      />
      <p className="muted list-count">{users.total} users</p>
      <AdminTable
        list={users}
        label="Users"
        columns={columns}
        emptyText="No users match."
        busyWhileLoading
        onRetry={() => void dispatch(fetchUsers())}
        onPage={(page) => void dispatch(fetchUsers({ page }))}
      />
      {eligibilityOf ? <EligibilityPanel user={eligibilityOf} onClose={() => setEligibilityOf(null)} /> : null}
      {deletion.dialog((doomed) => ({
        title: `Delete ${doomed.name}?`,
        confirmLabel: 'Delete account',
        danger: true,
        body: (
          <>
            <p>
              This removes the account of <strong>{doomed.name}</strong> ({doomed.email}) for good: their {doomed.totalPosts ?? 0} posts with their comments, likes and
              bookmarks, their comments on other posts, follows, notifications, location and activity. Their subscriptions end, their plans are withdrawn and
              subscribers with time left are refunded. Payments and the earnings ledger keep their amounts without the name.
            </p>
            <p>This cannot be undone.</p>
          </>
        ),
      }))}
    </>
  );
}
