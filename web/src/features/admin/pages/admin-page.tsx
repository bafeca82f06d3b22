/**
 * `/admin`: the administrators' dashboard. One page with a section navigation; the section is in
 * the address (`/admin?section=reports`), so every section can be linked to, bookmarked and
 * reached with Back and Forward.
 */
import { useEffect, type ComponentType } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { adminMessageCleared, selectAdmin } from '../admin-slice';
import { ActionStatus } from '../components/action-status';
import { AppealsSection } from '../sections/appeals-section';
import { AuditSection } from '../sections/audit-section';
import { BannersSection } from '../sections/banners-section';
import { CategoriesSection } from '../sections/categories-section';
import { ContactSection } from '../sections/contact-section';
import { EmailSection } from '../sections/email-section';
import { ExportSection } from '../sections/export-section';
import { LocationsSection } from '../sections/locations-section';
import { MoneySection } from '../sections/money-section';
import { NoticesSection } from '../sections/notices-section';
import { OperationsSection } from '../sections/operations-section';
import { OverviewSection } from '../sections/overview-section';
import { PostsSection } from '../sections/posts-section';
import { ReportsSection } from '../sections/reports-section';
import { SettingsSection } from '../sections/settings-section';
import { UsersSection } from '../sections/users-section';
import { AdminTwoFactorGate } from '../two-factor-gate';
import '../admin.css';

export interface DashboardSection {
  id: string;
  label: string;
  title: string;
  Component: ComponentType;
}

export const SECTIONS: DashboardSection[] = [
  { id: 'overview', label: 'Overview', title: 'Overview', Component: OverviewSection },
  { id: 'users', label: 'Users', title: 'Users', Component: UsersSection },
  { id: 'posts', label: 'Posts', title: 'Posts', Component: PostsSection },
  { id: 'contact', label: 'Contact messages', title: 'Contact messages', Component: ContactSection },
  { id: 'reports', label: 'Reports', title: 'Reported posts', Component: ReportsSection },
  { id: 'appeals', label: 'Appeals', title: 'Appeals', Component: AppealsSection },
  { id: 'notices', label: 'Notices & feedback', title: 'Notices and feedback', Component: NoticesSection },
  { id: 'banners', label: 'Banners', title: 'Banner notifications', Component: BannersSection },
  { id: 'categories', label: 'Categories', title: 'Categories', Component: CategoriesSection },
  { id: 'email', label: 'Email', title: 'Email', Component: EmailSection },
  { id: 'money', label: 'Money', title: 'Plans, criteria, earnings and payouts', Component: MoneySection },
  { id: 'locations', label: 'Locations', title: 'User locations', Component: LocationsSection },
  { id: 'export', label: 'Export', title: 'Export', Component: ExportSection },
  { id: 'audit', label: 'Audit log', title: 'Audit log', Component: AuditSection },
  { id: 'operations', label: 'Operations', title: 'Operations', Component: OperationsSection },
  { id: 'settings', label: 'Settings', title: 'Settings', Component: SettingsSection },
];

function Badge({ count, label }: { count: number | undefined; label: string }) {
  if (!count) return null;
  return (
    <span className="nav-badge" aria-label={`${count} ${label}`}>
      {count}
    </span>
  );
}

export function AdminPage() {
  const [params] = useSearchParams();
  const overview = useAppSelector(selectAdmin).overview.data;
  const asked = params.get('section');
  const active = SECTIONS.find((s) => s.id === asked) ?? SECTIONS[0];
  const { Component } = active;
  const dispatch = useAppDispatch();
  // A status line belongs to the section it came from ("User blocked" is not news in Reports).
  useEffect(() => {
    dispatch(adminMessageCleared());
  }, [dispatch, active.id]);
  return (
    <Page title={`${active.title} · Admin dashboard`} wide bare>
      <h1 className="page__title">Admin dashboard</h1>
      <AdminTwoFactorGate>
        <div className="dashboard">
          <nav className="dashboard__nav" aria-label="Dashboard sections">
            <ul>
              {SECTIONS.map((s) => (
                <li key={s.id}>
                  <Link to={s.id === 'overview' ? '/admin' : `/admin?section=${s.id}`} aria-current={s.id === active.id ? 'page' : undefined} className="dashboard__link">
                    <span>{s.label}</span>
                    {s.id === 'contact' ? <Badge count={overview?.unreadContactMessages} label="unread" /> : null}
                    {s.id === 'reports' ? <Badge count={overview?.openReports} label="open" /> : null}
                    {s.id === 'appeals' ? <Badge count={overview?.pendingAppeals} label="waiting" /> : null}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <section className="dashboard__content" aria-labelledby="section-title" data-section={active.id}>
            <h2 id="section-title">{active.title}</h2>
            <ActionStatus />
            <Component key={active.id} />
          </section>
        </div>
      </AdminTwoFactorGate>
    </Page>
  );
}

export default AdminPage;
