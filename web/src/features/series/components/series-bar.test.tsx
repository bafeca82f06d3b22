// A part's series bar: its place, the previous and next parts, every part with the current one
// marked, the list folded on phones; and on the post page, with "Edited" beside the date.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { testPost } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { mockAppStartup, mockNoTips, renderApp, renderWithProviders, signedInAuth } from '@/test/render';
import { formatDate } from '@/lib/format';
import type { SeriesPlace } from '../series-types';
import { PHONE_QUERY, SeriesBar } from './series-bar';

const place: SeriesPlace = {
  id: 's1',
  slug: 'the-long-walk',
  title: 'The Long Walk',
  position: 2,
  total: 3,
  previous: { slug: 'day-1', title: 'Day 1', position: 1 },
  next: { slug: 'day-3', title: 'Day 3', position: 3 },
  parts: [
    { slug: 'day-1', title: 'Day 1', position: 1 },
    { slug: 'day-2', title: 'Day 2', position: 2 },
    { slug: 'day-3', title: 'Day 3', position: 3 },
  ],
};

/** The screen is a phone's (PHONE_QUERY matches) or not. */
function screenIsPhone(phone: boolean) {
  const real = window.matchMedia.bind(window);
  window.matchMedia = (query: string) => ({ ...real(query), matches: phone && query === PHONE_QUERY });
}

describe('the series bar', () => {
  it('says which part of which series this is, with the previous and next parts', () => {
    renderWithProviders(<SeriesBar place={place} />);
    const bar = screen.getByRole('navigation', { name: 'Series' });
    expect(within(bar).getByText(/^Part 2 of 3 in/)).toHaveTextContent('Part 2 of 3 in The Long Walk');
    expect(within(bar).getByRole('link', { name: 'The Long Walk' })).toHaveAttribute('href', '/series/the-long-walk');
    const previous = within(bar).getByRole('link', { name: 'Previous Part 1: Day 1' });
    expect(previous).toHaveAttribute('href', '/post/day-1');
    expect(previous).toHaveAttribute('rel', 'prev');
    const next = within(bar).getByRole('link', { name: 'Next Part 3: Day 3' });
    expect(next).toHaveAttribute('href', '/post/day-3');
    expect(next).toHaveAttribute('rel', 'next');
  });

  it('lists every part with the current one marked, open on a wide screen', () => {
    screenIsPhone(false);
    renderWithProviders(<SeriesBar place={place} />);
    const details = screen.getByText('All 3 parts').closest('details')!;
    expect(details).toHaveAttribute('open');
    const links = within(details).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual(['Day 1', 'Day 2', 'Day 3']);
    expect(links[1]).toHaveAttribute('aria-current', 'page');
    expect(links[0]).not.toHaveAttribute('aria-current');
  });

  it('folds the list of parts on a phone until the reader opens it', async () => {
    screenIsPhone(true);
    renderWithProviders(<SeriesBar place={place} />);
    const details = screen.getByText('All 3 parts').closest('details')!;
    expect(details).not.toHaveAttribute('open');
    await userEvent.click(screen.getByText('All 3 parts'));
    expect(details).toHaveAttribute('open');
  });

  it('leaves out the previous part on the first part and the next on the last', () => {
    renderWithProviders(<SeriesBar place={{ ...place, position: 1, previous: null, next: { slug: 'day-2', title: 'Day 2', position: 2 } }} />);
    const bar = screen.getByRole('navigation', { name: 'Series' });
    expect(within(bar).queryByRole('link', { name: /^Previous/ })).not.toBeInTheDocument();
    expect(within(bar).getByRole('link', { name: 'Next Part 2: Day 2' })).toBeInTheDocument();
  });
});

describe('a part on the post page', () => {
  it('shows the series bar under the header, the next part at the end, and "Edited" beside the date', async () => {
    const post = testPost({
      _id: 'p2',
      slug: 'day-2',
      title: 'Day 2',
      author: { _id: 'w1', name: 'Wren Writer' },
      publishedAt: '2026-01-02T10:00:00Z',
      editedAt: '2026-02-10T10:00:00Z',
      seriesId: 's1',
      series: place,
    });
    mockAppStartup({ signedIn: true });
    mockNoTips();
    mockApi.on('GET', '/post/day-2', { body: { post } });
    mockApi.on('GET', '/comment/all-comments/p2', { body: { comments: [], count: 0 } });
    mockApi.on('GET', '/post/suggested-post/suggested', { body: { posts: [] } });
    mockApi.on('GET', '/post/bookmark-status/p2', { body: { liked: false, bookmarked: false, likesCount: 0, bookmarksCount: 0 } });
    mockApi.on('POST', '/post/view/day-2', { body: { views: 1 } });
    mockApi.on('POST', '/post/time-spent/p2', { body: { duration: 1 } });
    mockApi.on('GET', /^\/api\/follow\//, { body: { isFollowing: false } });
    renderApp('/post/day-2', { preloadedState: { auth: signedInAuth() } });

    const bar = await screen.findByRole('navigation', { name: 'Series' });
    expect(bar).toHaveTextContent('Part 2 of 3 in The Long Walk');
    const end = screen.getByRole('navigation', { name: 'More of The Long Walk' });
    expect(within(end).getByRole('link', { name: 'Next Part 3: Day 3' })).toHaveAttribute('href', '/post/day-3');
    const edited = screen.getByText(/Edited/);
    expect(edited).toHaveTextContent(`Edited ${formatDate('2026-02-10T10:00:00Z')}`);
    expect(edited.querySelector('time[datetime="2026-02-10T10:00:00Z"]')).not.toBeNull();
    // The bar needs nothing but the post's own answer.
    expect(mockApi.calls('GET', '/series/the-long-walk')).toHaveLength(0);
  });
});
