// The series page: loading, not found, an error read again, the parts in order with their
// labels and the reader's progress, who sees Follow, the follow toggle (at once, undone with a
// message when refused) and the follower's alerts bell (the current mode, a choice sent at once,
// put back with the server's message when refused).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { takeInitialData } from '@/app/initial-data';
import { setupStore } from '@/app/store';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { guestAuth, mockAppStartup, renderApp, signedInAuth, testUser } from '@/test/render';
import type { PartView, SeriesView } from '../series-types';

const series: SeriesView = {
  _id: 's1',
  slug: 'the-long-walk',
  title: 'The Long Walk',
  description: 'Three days on foot from the coast.',
  cover: null,
  author: { _id: 'w1', name: 'Wren Writer', avatar: null },
  total: 3,
  followers: 4,
  following: false,
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-02T10:00:00Z',
};
const part = (n: number, over: Partial<PartView> = {}): PartView => ({
  _id: `p${n}`,
  slug: `day-${n}`,
  title: `Day ${n}`,
  position: n,
  excerpt: `What happened on day ${n}.`,
  locked: false,
  publishedAt: `2026-01-0${n}T10:00:00Z`,
  read: false,
  ...over,
});
const parts = [part(1, { read: true }), part(2, { locked: true }), part(3)];
const answer = (over: Partial<SeriesView> = {}) => ({ series: { ...series, ...over }, parts, progress: { read: 1, total: 3 } });

describe('the series page', () => {
  it('says it is loading, then shows the series: writer, description, parts in order, labels, progress, feeds', async () => {
    mockAppStartup({ signedIn: true });
    let release: () => void = () => {};
    mockApi.on('GET', '/series/the-long-walk', () => new Promise((resolve) => (release = () => resolve({ body: answer() }))));
    renderApp('/series/the-long-walk', { preloadedState: { auth: signedInAuth() } });
    expect(await screen.findByText('Loading...')).toHaveAttribute('role', 'status');
    release();

    expect(await screen.findByRole('heading', { level: 1, name: 'The Long Walk' })).toBeInTheDocument();
    expect(document.title).toBe('The Long Walk · Pressroom');
    expect(screen.getByRole('link', { name: 'Wren Writer' })).toHaveAttribute('href', '/author-profile/w1');
    expect(screen.getByText(/A series by/)).toHaveTextContent('A series by Wren Writer · 3 parts');
    expect(screen.getByText('Three days on foot from the coast.')).toBeInTheDocument();

    const items = within(screen.getByRole('region', { name: 'Parts' })).getAllByTestId('series-part');
    expect(items.map((li) => li.querySelector('h2')?.textContent)).toEqual(['Day 1', 'Day 2', 'Day 3']);
    expect(items[0]).toHaveTextContent('Part 1');
    expect(within(items[1]).getByRole('link', { name: 'Day 2' })).toHaveAttribute('href', '/post/day-2');
    expect(items[1]).toHaveTextContent('What happened on day 2.');
    expect(within(items[0]).getByText('Read')).toBeInTheDocument();
    expect(within(items[1]).queryByText('Read')).not.toBeInTheDocument();
    expect(within(items[1]).getByText('For subscribers')).toBeInTheDocument();
    expect(within(items[0]).queryByText('For subscribers')).not.toBeInTheDocument();

    expect(screen.getByTestId('series-progress')).toHaveTextContent('1 of 3 read');
    expect(screen.getByRole('progressbar', { name: 'Your progress in this series' })).toHaveAttribute('value', '1');
    expect(screen.getByRole('link', { name: 'Continue with Part 2' })).toHaveAttribute('href', '/post/day-2');
    expect(screen.getByRole('link', { name: 'Atom' })).toHaveAttribute('href', '/series/the-long-walk/feed.xml');
    expect(screen.getByRole('link', { name: 'RSS' })).toHaveAttribute('href', '/series/the-long-walk/rss.xml');
    expect(screen.getByRole('button', { name: 'Follow The Long Walk' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('series-followers')).toHaveTextContent('4 followers');
    expect(screen.queryByTestId('alerts-bell')).not.toBeInTheDocument();
    // The first render loads the app and the page's lazy chunk: slow on a loaded machine.
  }, 20_000);

  it("draws the series the server's page showed at once, then the reader's own answer", async () => {
    const doc = document.implementation.createHTMLDocument('t');
    doc.body.innerHTML = '<div id="root"><main>The Long Walk</main></div>';
    const script = doc.createElement('script');
    script.id = 'initial-data';
    script.textContent = JSON.stringify({ path: '/series/the-long-walk', series: { ...answer(), progress: { read: 0, total: 3 } } });
    doc.head.appendChild(script);
    takeInitialData(setupStore({ auth: guestAuth() }), doc, '/series/the-long-walk');
    try {
      mockAppStartup({ signedIn: true });
      let release: () => void = () => {};
      mockApi.on('GET', '/series/the-long-walk', () => new Promise((resolve) => (release = () => resolve({ body: answer({ following: true, followers: 5 }) }))));
      renderApp('/series/the-long-walk', { preloadedState: { auth: signedInAuth() } });
      expect(await screen.findByRole('heading', { level: 1, name: 'The Long Walk' })).toBeInTheDocument();
      expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
      expect(screen.getAllByTestId('series-part')).toHaveLength(3);
      release();
      expect(await screen.findByTestId('series-followers')).toHaveTextContent('5 followers');
    } finally {
      takeInitialData(setupStore({ auth: guestAuth() }), document.implementation.createHTMLDocument('t'), '/');
    }
  });

  it('shows a guest the parts and feeds without progress or Follow', async () => {
    mockAppStartup();
    mockApi.on('GET', '/series/the-long-walk', { body: { ...answer(), parts: parts.map((p) => ({ ...p, read: false })), progress: { read: 0, total: 3 } } });
    renderApp('/series/the-long-walk', { preloadedState: { auth: guestAuth() } });
    await screen.findByRole('heading', { level: 1, name: 'The Long Walk' });
    expect(screen.getAllByTestId('series-part')).toHaveLength(3);
    expect(screen.queryByTestId('series-progress')).not.toBeInTheDocument();
    expect(screen.queryByTestId('follow-series')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start reading' })).toHaveAttribute('href', '/post/day-1');
  });

  it('gives the writer no Follow button but a way to manage their series', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/series/the-long-walk', { body: answer({ author: { _id: testUser._id, name: testUser.name, avatar: null } }) });
    renderApp('/series/the-long-walk', { preloadedState: { auth: signedInAuth() } });
    await screen.findByRole('heading', { level: 1, name: 'The Long Walk' });
    expect(screen.queryByTestId('follow-series')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage your series' })).toHaveAttribute('href', '/my-series');
  });

  it("says 'Series not found' for an unknown address", async () => {
    mockAppStartup();
    mockApi.on('GET', '/series/nothing-here', { status: 404, body: { message: 'Series not found', code: 'not_found' } });
    renderApp('/series/nothing-here', { preloadedState: { auth: guestAuth() } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Series not found' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Series not found');
    expect(document.title).toBe('Series not found · Pressroom');
  });

  it("shows the server's error and reads the series again on Try again", async () => {
    mockAppStartup();
    mockApi.on('GET', '/series/the-long-walk', { status: 503, body: { message: 'The store is busy, try again shortly' } }, { once: true });
    renderApp('/series/the-long-walk', { preloadedState: { auth: guestAuth() } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The store is busy, try again shortly');
    mockApi.on('GET', '/series/the-long-walk', { body: answer() });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'The Long Walk' })).toBeInTheDocument();
  });

  it('follows at once and keeps the count the server gives; unfollows the same way', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/series/the-long-walk', { body: answer() });
    let release: () => void = () => {};
    mockApi.on('POST', '/series/s1/follow', () => new Promise((resolve) => (release = () => resolve({ body: { following: true, followers: 9 } }))));
    renderApp('/series/the-long-walk', { preloadedState: { auth: signedInAuth() } });
    const button = await screen.findByRole('button', { name: 'Follow The Long Walk' });
    await userEvent.click(button);
    // At once (the next frame), before the server answered.
    expect(await screen.findByRole('button', { name: 'Following The Long Walk' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('series-followers')).toHaveTextContent('5 followers');
    release();
    await waitFor(() => expect(screen.getByTestId('series-followers')).toHaveTextContent('9 followers'));
    expect(screen.getByRole('button', { name: 'Following The Long Walk' })).toBeInTheDocument();

    mockApi.on('DELETE', '/series/s1/follow', { body: { following: false, followers: 8 } });
    await userEvent.click(screen.getByRole('button', { name: 'Following The Long Walk' }));
    await waitFor(() => expect(screen.getByTestId('series-followers')).toHaveTextContent('8 followers'));
    expect(screen.getByRole('button', { name: 'Follow The Long Walk' })).toHaveAttribute('aria-pressed', 'false');
    expect(mockApi.calls('POST', '/series/s1/follow')).toHaveLength(1);
    expect(mockApi.calls('DELETE', '/series/s1/follow')).toHaveLength(1);
  });

  it("puts Follow back and shows the server's message when following is refused", async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/series/the-long-walk', { body: answer() });
    mockApi.on('POST', '/series/s1/follow', { status: 400, body: { message: 'You cannot follow your own series', code: 'validation_error' } });
    renderApp('/series/the-long-walk', { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(await screen.findByRole('button', { name: 'Follow The Long Walk' }));
    await waitFor(() => expect(currentToasts().map((t) => t.message)).toContain('You cannot follow your own series'));
    expect(screen.getByRole('button', { name: 'Follow The Long Walk' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('series-followers')).toHaveTextContent('4 followers');
  });

  it('gives a follower the alerts bell showing their current mode; following shows it, unfollowing hides it', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/series/the-long-walk', { body: answer({ following: true, followers: 5, alerts: 'digest' }) });
    renderApp('/series/the-long-walk', { preloadedState: { auth: signedInAuth() } });
    const bell = await screen.findByRole('button', { name: 'Alerts for new parts of The Long Walk: Daily digest' });
    expect(bell).toHaveAttribute('aria-haspopup', 'menu');
    await userEvent.click(bell);
    const menu = screen.getByRole('menu', { name: 'New parts of The Long Walk' });
    const items = within(menu).getAllByRole('menuitemradio');
    expect(items.map((item) => item.querySelector('.alerts-menu__label')?.textContent)).toEqual(['All new posts', '✓ Daily digest', 'Off']);
    expect(within(menu).getByRole('menuitemradio', { name: /Daily digest/ })).toHaveAttribute('aria-checked', 'true');
    expect(within(menu).getByRole('menuitemradio', { name: /All new posts/ })).toHaveAttribute('aria-checked', 'false');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    mockApi.on('DELETE', '/series/s1/follow', { body: { following: false, followers: 4, alerts: null } });
    await userEvent.click(screen.getByRole('button', { name: 'Following The Long Walk' }));
    await waitFor(() => expect(screen.queryByTestId('alerts-bell')).not.toBeInTheDocument());
    mockApi.on('POST', '/series/s1/follow', { body: { following: true, followers: 5, alerts: 'instant' } });
    await userEvent.click(screen.getByRole('button', { name: 'Follow The Long Walk' }));
    expect(await screen.findByRole('button', { name: 'Alerts for new parts of The Long Walk: All new posts' })).toBeInTheDocument();
  });

  it('sends the chosen mode at once and keeps what the server saved', async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/series/the-long-walk', { body: answer({ following: true, followers: 5, alerts: 'instant' }) });
    let release: () => void = () => {};
    mockApi.on('PUT', '/series/s1/follow/alerts', () => new Promise((resolve) => (release = () => resolve({ body: { following: true, followers: 5, alerts: 'off' } }))));
    renderApp('/series/the-long-walk', { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(await screen.findByRole('button', { name: 'Alerts for new parts of The Long Walk: All new posts' }));
    await userEvent.click(screen.getByRole('menuitemradio', { name: /Off/ }));
    // At once, before the server answered.
    const bell = await screen.findByRole('button', { name: 'Alerts for new parts of The Long Walk: Off' });
    expect(bell).toHaveAttribute('aria-busy', 'true');
    expect(bell).toHaveFocus();
    release();
    await waitFor(() => expect(currentToasts().map((t) => t.message)).toContain('Alerts from The Long Walk are off.'));
    expect(bell).toHaveAttribute('aria-busy', 'false');
    expect(bell).toHaveAccessibleName('Alerts for new parts of The Long Walk: Off');
    const calls = mockApi.calls('PUT', '/series/s1/follow/alerts');
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ mode: 'off' });
  });

  it("puts the mode back and shows the server's message when the choice is refused", async () => {
    mockAppStartup({ signedIn: true });
    mockApi.on('GET', '/series/the-long-walk', { body: answer({ following: true, followers: 5, alerts: 'instant' }) });
    mockApi.on('PUT', '/series/s1/follow/alerts', { status: 404, body: { message: 'You do not follow this series', code: 'not_found' } });
    renderApp('/series/the-long-walk', { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(await screen.findByRole('button', { name: 'Alerts for new parts of The Long Walk: All new posts' }));
    await userEvent.click(screen.getByRole('menuitemradio', { name: /Daily digest/ }));
    await waitFor(() => expect(currentToasts().map((t) => t.message)).toContain('You do not follow this series'));
    expect(mockApi.calls('PUT', '/series/s1/follow/alerts')[0].body).toEqual({ mode: 'digest' });
    const bell = screen.getByRole('button', { name: 'Alerts for new parts of The Long Walk: All new posts' });
    await userEvent.click(bell);
    expect(screen.getByRole('menuitemradio', { name: /All new posts/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('menuitemradio', { name: /Daily digest/ })).toHaveAttribute('aria-checked', 'false');
  });
});
