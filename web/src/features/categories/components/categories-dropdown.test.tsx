import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentToasts } from '@/lib/toast';
import { mockApi } from '@/test/mock-api';
import { guestAuth, renderWithProviders, signedInAuth, testUser } from '@/test/render';
import { CategoriesDropdown } from './categories-dropdown';

const cats = Array.from({ length: 7 }, (_, i) => ({ _id: `c${i}`, name: `Cat ${i}`, slug: `cat-${i}`, createdBy: i === 0 ? 'u1' : null }));

describe('CategoriesDropdown', () => {
  it('shows a guest the first 5 categories, a star for created ones, and the log-in hint', async () => {
    mockApi.on('GET', '/category/all-category', { body: { categories: cats } });
    renderWithProviders(<CategoriesDropdown />, { preloadedState: { auth: guestAuth() } });
    await userEvent.click(screen.getByRole('button', { name: 'Categories' }));
    const panel = screen.getByRole('region', { name: 'Categories' });
    await within(panel).findByText('Log in to see all your selected categories!');
    const pills = within(panel).getAllByRole('button').filter((b) => b.className.includes('pill'));
    expect(pills.map((p) => p.textContent)).toEqual(['Cat 0 ★', 'Cat 1', 'Cat 2', 'Cat 3', 'Cat 4']);
    expect(within(panel).queryByRole('button', { name: 'Manage Categories' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('link', { name: 'Choose the categories you follow' })).not.toBeInTheDocument();
    await userEvent.click(pills[2]);
    expect(screen.getByTestId('location')).toHaveTextContent('/category/cat-2');
    expect(screen.queryByRole('region', { name: 'Categories' })).not.toBeInTheDocument();
  });

  it("tells a signed-in user with no selection to visit Category Management, and offers Manage Categories", async () => {
    mockApi.on('GET', '/category/user-selected', { body: { categories: [] } });
    renderWithProviders(<CategoriesDropdown />, { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(screen.getByRole('button', { name: 'Categories' }));
    expect(await screen.findByText('No categories selected. Visit Category Management to add some!')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Manage Categories' }));
    expect(screen.getByTestId('location')).toHaveTextContent(`/author-profile/${testUser._id}?tab=categories`);
  });

  it('links a signed-in user to /select-category (guests see no such link)', async () => {
    mockApi.on('GET', '/category/user-selected', { body: { categories: [] } });
    renderWithProviders(<CategoriesDropdown />, { preloadedState: { auth: signedInAuth() } });
    await userEvent.click(screen.getByRole('button', { name: 'Categories' }));
    await userEvent.click(await screen.findByRole('link', { name: 'Choose the categories you follow' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/select-category');
  });

  it("shows 'Failed to load categories' and the toast when loading fails", async () => {
    mockApi.on('GET', '/category/all-category', { status: 404 });
    renderWithProviders(<CategoriesDropdown />, { preloadedState: { auth: guestAuth() } });
    await userEvent.click(screen.getByRole('button', { name: 'Categories' }));
    expect(await screen.findByText('Failed to load categories')).toBeInTheDocument();
    await waitFor(() => expect(currentToasts().map((t) => t.message)).toContain('Unable to load categories. Please try again later.'));
  });

  it("shows 'Loading categories...' while loading and closes on an outside click", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockApi.on('GET', '/category/all-category', async () => {
      await gate;
      return { body: { categories: [] } };
    });
    renderWithProviders(<CategoriesDropdown />, { preloadedState: { auth: guestAuth() } });
    await userEvent.click(screen.getByRole('button', { name: 'Categories' }));
    expect(screen.getByText('Loading categories...')).toBeInTheDocument();
    release();
    expect(await screen.findByText('Please log in to view your categories.')).toBeInTheDocument();
    await userEvent.click(document.body);
    expect(screen.queryByRole('region', { name: 'Categories' })).not.toBeInTheDocument();
  });
});
