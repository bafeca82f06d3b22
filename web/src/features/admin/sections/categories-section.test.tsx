import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signedInAuth, testAdmin } from '@/test/render';
import { CategoriesSection } from './categories-section';

const admin = () => ({ auth: signedInAuth({ user: testAdmin, role: 'admin' }) });

describe('the Categories section', () => {
  it('adds the default categories with POST /category/seed and lists them', async () => {
    mockApi.on('GET', '/category/all-category', { body: { categories: [] } }, { once: true });
    mockApi.on('POST', '/category/seed', { body: { message: 'Added 16 default categories' } });
    const user = userEvent.setup();
    renderWithProviders(<CategoriesSection />, { preloadedState: admin() });
    expect(await screen.findByText('No categories yet.')).toBeInTheDocument();
    mockApi.on('GET', '/category/all-category', { body: { categories: [{ _id: 'c1', name: 'Technology', slug: 'technology' }, { _id: 'c2', name: 'Science', slug: 'science' }] } });
    await user.click(screen.getByRole('button', { name: 'Add the default categories' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Added 16 default categories');
    expect(mockApi.calls('POST', '/category/seed')).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'All categories (2)' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Categories' })).toHaveTextContent('TechnologyScience');
  });

  it("says 'Failed to seed categories' when the server fails without a message", async () => {
    mockApi.on('GET', '/category/all-category', { body: { categories: [] } });
    mockApi.on('POST', '/category/seed', { status: 500 });
    const user = userEvent.setup();
    renderWithProviders(<CategoriesSection />, { preloadedState: admin() });
    await user.click(await screen.findByRole('button', { name: 'Add the default categories' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to seed categories');
  });
});
