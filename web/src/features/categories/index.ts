export * from './categories-slice';
export { CategoriesDropdown, CATEGORY_MESSAGES } from './components/categories-dropdown';
