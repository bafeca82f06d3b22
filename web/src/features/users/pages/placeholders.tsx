import { useParams, useSearchParams } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { Page, PlaceholderPage } from '@/components/page';
import { selectProfile } from '../users-slice';

export function ProfilePage() {
  const user = useAppSelector((state) => state.auth.user);
  const profile = useAppSelector(selectProfile);
  return (
    <Page title="Your profile">
      <dl className="details">
        <dt>Name</dt>
        <dd>{profile?.name ?? user?.name}</dd>
        <dt>Email</dt>
        <dd>{profile?.email ?? user?.email}</dd>
        <dt>Role</dt>
        <dd>{user?.role}</dd>
      </dl>
      <p className="muted" data-testid="placeholder">Your posts, followers and achievements appear here.</p>
    </Page>
  );
}

export function SettingsPage() {
  return <PlaceholderPage title="Settings" description="Account, avatar, password and notification settings appear here." />;
}

export function AuthorProfilePage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const tab = params.get('tab');
  const what = tab === 'categories' ? 'Category management' : tab === 'bank-details' ? 'Bank details' : 'The author studio';
  return <PlaceholderPage title="Author profile" description={`${what} for author ${id} appears here.`} />;
}

export function PlansPage() {
  const { id } = useParams();
  return <PlaceholderPage title="Subscription plans" description={`Subscription plans of author ${id} appear here.`} />;
}
