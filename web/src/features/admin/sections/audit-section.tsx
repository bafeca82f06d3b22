import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDate, relativeTime } from '@/lib/format';
import { auditFilterChanged, fetchAuditLog, selectAdmin } from '../admin-slice';
import type { AdminUser, AuditEntry } from '../admin-types';
import { AdminTable, type Column } from '../components/admin-table';
import { UserPicker } from '../components/user-picker';

/** Every action the audit log records (docs/decisions.md "The audit log"). */
export const AUDIT_ACTIONS = [
  'user.block',
  'user.unblock',
  'user.promote',
  'user.demote',
  'user.delete',
  'post.block',
  'post.unblock',
  'post.update',
  'post.delete',
  'appeal.decide',
  'notice.send',
  'notice.broadcast',
  'banner.create',
  'banner.deactivate',
  'banner.delete_all',
  'feedback.prompt',
  'category.seed',
  'contact.handled',
  'contact.reply',
  'report.review',
  'report.notice',
  'email.retry',
  'data.export',
  'plan.update',
  'plan.activate',
  'plan.delete',
  'plan.status',
  'subscription.cancel',
  'subscription.refund',
  'subscription.unsubscribe',
  'subscription.reminders',
  'subscription.criteria',
  'eligibility.toggle',
  'eligibility.grant',
  'eligibility.override',
  'eligibility.milestone',
  'eligibility.milestone_reset',
  'earning.payout',
  'bank_details.create',
  'bank_details.update',
  'bank_details.delete',
  'tip.refund',
  'two_factor.enable',
  'two_factor.disable',
  'two_factor.recovery_codes',
  'passkey.add',
  'passkey.sign_in',
  'passkey.reauth',
  'passkey.rename',
  'passkey.remove',
  'passkey.refused',
  'api_key.create',
  'api_key.revoke',
  'account.deletion_schedule',
  'account.deletion_cancel',
  'account.delete',
  'account.export_request',
  'account.export_download',
  'settings.update',
  'import.start',
  'import.confirm',
  'import.cancel',
  'import.remove_posts',
];

/** A short reading of an entry's details. */
export function detailsText(details: unknown): string {
  if (!details || typeof details !== 'object') return '';
  const entries = Object.entries(details as Record<string, unknown>);
  if (entries.length === 0) return '';
  return entries
    .map(([key, value]) => {
      if (Array.isArray(value)) return `${key}: ${value.length}`;
      if (value && typeof value === 'object') return `${key}: ${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k} ${String(v)}`).join(', ')}`;
      return `${key}: ${String(value)}`;
    })
    .join('; ');
}

function target(entry: AuditEntry): string {
  if (entry.targetLabel) return `${entry.targetType ?? ''} ${entry.targetLabel}`.trim();
  if (entry.targetId) return `${entry.targetType ?? ''} ${entry.targetId}`.trim();
  return entry.targetType ?? '';
}

const COLUMNS: Column<AuditEntry>[] = [
  {
    header: 'When',
    cell: (e) => (
      <time dateTime={e.createdAt} title={formatDate(e.createdAt)}>
        {relativeTime(e.createdAt)}
      </time>
    ),
  },
  {
    header: 'Who',
    cell: (e) => (
      <>
        {e.actor.name}
        <div className="muted small">{e.actor.email}</div>
      </>
    ),
  },
  { header: 'Action', cell: (e) => <code>{e.action}</code> },
  { header: 'Target', cell: target },
  { header: 'Details', className: 'small', cell: (e) => detailsText(e.details) },
];

export function AuditSection() {
  const dispatch = useAppDispatch();
  const { auditLog } = useAppSelector(selectAdmin);
  const [actor, setActor] = useState<AdminUser | null>(null);
  useEffect(() => {
    void dispatch(fetchAuditLog({ page: 1 }));
  }, [dispatch, auditLog.filter]);
  return (
    <>
      <div className="inline-form">
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select id="audit-action" value={auditLog.filter.action} onChange={(e) => dispatch(auditFilterChanged({ action: e.target.value }))}>
            <option value="">Every action</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <UserPicker
          label="Administrator"
          value={actor}
          onChange={(user) => {
            setActor(user);
            dispatch(auditFilterChanged({ actorId: user?._id ?? '' }));
          }}
        />
      </div>
      <p className="muted list-count">{auditLog.total} entries</p>
      <AdminTable
        list={auditLog}
        label="Audit log"
        columns={COLUMNS}
        emptyText="Nothing recorded yet."
        onRetry={() => void dispatch(fetchAuditLog({}))}
        onPage={(page) => void dispatch(fetchAuditLog({ page }))}
      />
    </>
  );
}
