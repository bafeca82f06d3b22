import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { INITIAL_DATA_ID, takeInitialData } from '@/app/initial-data';
import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth } from '@/test/render';
import type { UserProfile } from '@/types/entities';
import { BLOCK_EXPLANATION, ProfileHeader } from './profile-header';

const author: UserProfile = {
  _id: 'u2',
  name: 'Grace Hopper',
  bio: 'Compilers and nanoseconds.',
  region: 'United States',
  createdAt: '2024-03-01T10:00:00.000Z',
  followersCount: 1200,
  followingCount: 3,
  totalPosts: 12,
  isOnline: true,
  isFollowing: false,
  blockedByYou: false,
} as UserProfile;

function plans(count: number) {
  mockApi.on('GET', '/subscription/plans/author/u2', { body: { plans: Array.from({ length: count }, (_, i) => ({ _id: `p${i}` })), count } });
}

describe('the profile header', () => {
  it('shows who they are, their counts and presence, and Subscribe when they sell plans', async () => {
    plans(1);
    renderWithProviders(<ProfileHeader user={author} own={false} />, { preloadedState: { auth: signedInAuth() } });
    expect(screen.getByRole('heading', { name: /Grace Hopper/ })).toBeInTheDocument();
    expect(screen.getByText('Compilers and nanoseconds.')).toBeInTheDocument();
    expect(screen.getByText('United States')).toBeInTheDocument();
    expect(screen.getByText(/^Joined /)).toBeInTheDocument();
    expect(screen.getByTestId('followers-count')).toHaveTextContent('1.2K');
    expect(screen.getByTestId('presence')).toHaveTextContent('Online');
    expect(screen.getByTestId('online-dot')).toHaveAttribute('data-online', 'true');
    expect(await screen.findByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', '/plans/u2');
    expect(screen.getByRole('button', { name: /^Follow/ })).toBeInTheDocument();
    // The profile said whether the viewer follows: no status call.
    expect(mockApi.calls('GET', '/follow/status/u2')).toHaveLength(0);
  });

  it('offers no Subscribe without active plans', async () => {
    plans(0);
    renderWithProviders(<ProfileHeader user={author} own={false} />, { preloadedState: { auth: signedInAuth() } });
    await screen.findByRole('button', { name: /^Block/ });
    await vi.waitFor(() => expect(mockApi.calls('GET', '/subscription/plans/author/u2')).toHaveLength(1));
    expect(screen.queryByRole('link', { name: 'Subscribe' })).not.toBeInTheDocument();
  });

  it("takes the server page's answer about plans and asks nothing (no endpoint code loads)", async () => {
    plans(0);
    const doc = document.implementation.createHTMLDocument('page');
    const data = doc.createElement('script');
    data.id = INITIAL_DATA_ID;
    data.textContent = JSON.stringify({
      path: '/author-profile/u2',
      list: { key: 'userPosts', filter: { userId: 'u2' }, posts: [], total: 0 },
      profile: author,
      hasPlans: true,
    });
    doc.body.append(data);
    takeInitialData(setupStore(), doc, '/author-profile/u2');
    renderWithProviders(<ProfileHeader user={author} own={false} />, { preloadedState: { auth: signedInAuth() } });
    expect(screen.getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', '/plans/u2');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(mockApi.calls('GET', '/subscription/plans/author/u2')).toHaveLength(0);
    // Another page's data is forgotten: the next author is asked about.
    takeInitialData(setupStore(), document.implementation.createHTMLDocument('other'), '/');
  });

  it('says what blocking does before blocking, and Cancel blocks no one', async () => {
    plans(0);
    const user = userEvent.setup();
    renderWithProviders(<ProfileHeader user={author} own={false} />, { preloadedState: { auth: signedInAuth() } });
    await user.click(screen.getByRole('button', { name: /^Block/ }));
    const dialog = screen.getByRole('dialog', { name: 'Block Grace Hopper?' });
    expect(within(dialog).getByText(BLOCK_EXPLANATION)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(mockApi.calls('POST', '/block/block-user/u2')).toHaveLength(0);
  });

  it('the owner gets Write and Edit profile, never Follow, Block or Subscribe', () => {
    renderWithProviders(<ProfileHeader user={{ ...author, _id: 'u1' }} own />, { preloadedState: { auth: signedInAuth() } });
    expect(screen.getByRole('link', { name: 'Write' })).toHaveAttribute('href', '/createPost');
    expect(screen.getByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/user-setting');
    expect(screen.queryByRole('button', { name: /Follow|Block/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Subscribe' })).not.toBeInTheDocument();
  });

  it('a guest is asked to log in to follow', () => {
    plans(0);
    renderWithProviders(<ProfileHeader user={author} own={false} />);
    expect(screen.getByRole('link', { name: 'Log in to follow' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: /^Block/ })).not.toBeInTheDocument();
  });
});
