import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import type { Category } from '@/types/entities';
import {
  assignCategories,
  categoriesReducer,
  checkSlug,
  createCategory,
  deleteCategory,
  fetchCategories,
  initialCategoriesState,
  updateCategory,
} from './categories-slice';

const cat = (id: string, name = id): Category => ({ _id: id, name, slug: id, description: '', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' });

describe('categories', () => {
  it('goes idle → loading → succeeded, and skips a fetch when data exists and the last status was not failed', async () => {
    mockApi.on('GET', '/category/all-category', { body: { categories: [cat('a')] } });
    const store = setupStore();
    expect(store.getState().categories.status).toBe('idle');
    const pending = store.dispatch(fetchCategories());
    expect(store.getState().categories.status).toBe('loading');
    await pending;
    expect(store.getState().categories.status).toBe('succeeded');
    await store.dispatch(fetchCategories());
    expect(mockApi.calls('GET', '/category/all-category')).toHaveLength(1);
  });

  it("fails with 'Failed to fetch categories' and fetches again after a failure", async () => {
    mockApi.on('GET', '/category/all-category', { status: 404 });
    const store = setupStore({ categories: { ...initialCategoriesState, categories: [cat('a')], status: 'failed' } });
    await store.dispatch(fetchCategories());
    expect(store.getState().categories).toMatchObject({ status: 'failed', error: 'Failed to fetch categories' });
    expect(mockApi.calls('GET', '/category/all-category')).toHaveLength(1);
  });

  it("create appends and selects; a failed assign reports 'Failed to assign categories'", async () => {
    mockApi.on('POST', '/category/', { body: { category: cat('n', 'New') } });
    mockApi.on('POST', '/category/users/u1/categories', { status: 500 });
    const store = setupStore({ categories: { ...initialCategoriesState, categories: [cat('a')], userSelectedCategories: [] } });
    await store.dispatch(createCategory({ name: 'New', slug: 'n', description: '' }));
    expect(store.getState().categories.categories.map((c) => c._id)).toEqual(['a', 'n']);
    expect(store.getState().categories.selectedCategory?._id).toBe('n');
    await store.dispatch(assignCategories({ userId: 'u1', categoryIds: ['n'] }));
    expect(mockApi.calls('POST', '/category/users/u1/categories')[0].body).toEqual({ categoryIds: ['n'], newCategories: [] });
    expect(store.getState().categories.error).toBe('Failed to assign categories');
  });

  it('update replaces the category in both lists; delete removes it and clears the selection', () => {
    const start = { ...initialCategoriesState, categories: [cat('n')], userSelectedCategories: [cat('n')], selectedCategory: cat('n') };
    const updated = categoriesReducer(start, { type: updateCategory.fulfilled.type, payload: cat('n', 'Renamed') });
    expect(updated.categories[0].name).toBe('Renamed');
    expect(updated.userSelectedCategories[0].name).toBe('Renamed');
    const deleted = categoriesReducer(updated, { type: deleteCategory.fulfilled.type, payload: 'n' });
    expect(deleted).toMatchObject({ categories: [], userSelectedCategories: [], selectedCategory: null });
  });

  it("assigning replaces the user's selected list", () => {
    const state = categoriesReducer({ ...initialCategoriesState, userSelectedCategories: [cat('a')] }, {
      type: assignCategories.fulfilled.type,
      payload: [cat('b')],
    });
    expect(state.userSelectedCategories.map((c) => c._id)).toEqual(['b']);
  });

  it('a failed slug check sets isAvailable to false', async () => {
    mockApi.on('GET', '/category/check-slug', { status: 500 });
    const store = setupStore();
    await store.dispatch(checkSlug('news'));
    expect(store.getState().categories.slugCheck).toEqual({ slug: 'news', loading: false, isAvailable: false });
  });
});
