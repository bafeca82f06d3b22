import { act, fireEvent, screen } from '@testing-library/react';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { SearchBox } from './search-box';

/** Moves the fake clock (synchronously, as a user's wait would), then lets React apply what that caused. */
function advance(ms: number) {
  return act(() => {
    vi.advanceTimersByTime(ms);
    return Promise.resolve();
  });
}

function type(value: string) {
  fireEvent.change(screen.getByPlaceholderText('Search articles or users...'), { target: { value } });
}

describe('SearchBox', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('waits 400 ms, then searches posts and users and lists users first', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockApi.on('GET', '/public/search-posts', async () => {
      await gate;
      return { body: { posts: [{ _id: 'p1', slug: 'rust-tips', title: 'Rust tips' }], total: 1 } };
    });
    mockApi.on('GET', '/post/search-users', {
      body: { users: [{ _id: 'u9', name: 'Rusty Nail', email: 'rusty@example.com', totalPosts: 7, avatar: null }] },
    });
    renderWithProviders(<SearchBox />);
    type('rus');
    await advance(399);
    expect(mockApi.calls('GET', '/post/search-users')).toHaveLength(0);
    await advance(1);
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(screen.getByTestId('search-dropdown')).toHaveStyle({ maxHeight: '450px' });
    release();
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Rusty Nailrusty@example.comPosts: 7', 'Rust tips']);
    // The avatar shows the initials (drawn by CSS, outside the option's accessible name).
    expect(options[0].querySelector('[data-initials]')).toHaveAttribute('data-initials', 'RN');
    expect(mockApi.calls('GET', '/post/search-users')[0].url.searchParams.get('query')).toBe('rus');
  });

  it('debounces: only the last text is searched', async () => {
    mockApi.on('GET', '/public/search-posts', { body: { posts: [], total: 0 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [] } });
    renderWithProviders(<SearchBox />);
    type('rus');
    await advance(200);
    type('rust');
    await advance(400);
    expect(mockApi.calls('GET', '/post/search-users').map((c) => c.url.searchParams.get('query'))).toEqual(['rust']);
    expect(await screen.findByText('No results found')).toBeInTheDocument();
  });

  it('shows Error: {message}', async () => {
    mockApi.on('GET', '/public/search-posts', { status: 503, body: { message: 'Search is down' } });
    mockApi.on('GET', '/post/search-users', { status: 503, body: { message: 'Search is down' } });
    renderWithProviders(<SearchBox />);
    type('rust');
    await advance(400);
    expect(await screen.findByText('Error: Search is down')).toBeInTheDocument();
  });

  it('does not search under 3 characters, and clears when emptied', async () => {
    renderWithProviders(<SearchBox />);
    type('ru');
    await advance(500);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    type('');
    await advance(500);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('Enter with 3+ characters goes to /search?query=', () => {
    mockApi.on('GET', '/public/search-posts', { body: { posts: [], total: 0 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [] } });
    renderWithProviders(<SearchBox />);
    type('ab');
    fireEvent.submit(screen.getByRole('search'));
    expect(screen.getByTestId('location')).toHaveTextContent('/');
    type('rust lang');
    fireEvent.submit(screen.getByRole('search'));
    expect(screen.getByTestId('location')).toHaveTextContent('/search?query=rust%20lang');
  });

  it('a user result opens the author profile, a post result the post', async () => {
    mockApi.on('GET', '/public/search-posts', { body: { posts: [{ _id: 'p1', slug: 'rust-tips', title: 'Rust tips' }], total: 1 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [{ _id: 'u9', name: 'Rusty', email: 'r@x', totalPosts: 1 }] } });
    renderWithProviders(<SearchBox />);
    type('rust');
    await advance(400);
    fireEvent.click(await screen.findByRole('option', { name: /Rusty/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/author-profile/u9');
    type('rust ');
    fireEvent.focus(screen.getByPlaceholderText('Search articles or users...'));
    fireEvent.click(await screen.findByRole('option', { name: 'Rust tips' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/post/rust-tips');
  });

  it('is a combobox: arrow keys highlight results (aria-activedescendant), Enter opens the highlighted one', async () => {
    mockApi.on('GET', '/public/search-posts', { body: { posts: [{ _id: 'p1', slug: 'rust-tips', title: 'Rust tips' }], total: 1 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [{ _id: 'u9', name: 'Rusty Nail', totalPosts: 7 }] } });
    renderWithProviders(<SearchBox />);
    const input = screen.getByRole('combobox', { name: 'Search' });
    type('rus');
    await advance(400);
    await screen.findByRole('option', { name: 'Rust tips' });
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(input).toHaveAttribute('aria-controls', screen.getByRole('listbox', { name: 'Search results' }).id);
    expect(input).not.toHaveAttribute('aria-activedescendant');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const [user, post] = screen.getAllByRole('option');
    expect(input).toHaveAttribute('aria-activedescendant', user.id);
    expect(user).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input).toHaveAttribute('aria-activedescendant', post.id);
    expect(post).toHaveAttribute('aria-selected', 'true');
    expect(user).toHaveAttribute('aria-selected', 'false');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input).toHaveAttribute('aria-activedescendant', user.id);
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(input).toHaveAttribute('aria-activedescendant', post.id);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByTestId('location')).toHaveTextContent('/post/rust-tips');
  });

  it('Escape closes the list and keeps the text', async () => {
    mockApi.on('GET', '/public/search-posts', { body: { posts: [{ _id: 'p1', slug: 'rust-tips', title: 'Rust tips' }], total: 1 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [] } });
    renderWithProviders(<SearchBox />);
    const input = screen.getByRole('combobox', { name: 'Search' });
    type('rus');
    await advance(400);
    await screen.findByRole('option', { name: 'Rust tips' });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveValue('rus');
  });

  it("drops the previous query's results at 1 or 2 characters", async () => {
    mockApi.on('GET', '/public/search-posts', { body: { posts: [{ _id: 'p1', slug: 'rust-tips', title: 'Rust tips' }], total: 1 } });
    mockApi.on('GET', '/post/search-users', { body: { users: [] } });
    const { store } = renderWithProviders(<SearchBox />);
    type('rust');
    await advance(400);
    await screen.findByRole('option', { name: 'Rust tips' });
    type('ru');
    expect(screen.queryByRole('option', { name: 'Rust tips' })).not.toBeInTheDocument();
    await advance(400);
    expect(store.getState().search.posts).toEqual([]);
    fireEvent.focus(screen.getByRole('combobox'));
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
  });

  it("Enter under 3 characters says 'Type at least 3 characters to search.'", () => {
    renderWithProviders(<SearchBox />);
    type('ru');
    fireEvent.submit(screen.getByRole('search'));
    expect(screen.getByRole('status')).toHaveTextContent('Type at least 3 characters to search.');
    expect(screen.getByRole('combobox')).toHaveAccessibleDescription('Type at least 3 characters to search.');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    type('rust');
    expect(screen.queryByText('Type at least 3 characters to search.')).not.toBeInTheDocument();
  });
});
