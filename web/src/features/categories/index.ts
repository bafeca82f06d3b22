export * from './categories-slice';
export { CategoriesDropdown, CATEGORY_MESSAGES } from './components/categories-dropdown';
export { slugify, useSlugCheck, SlugHint, SLUG_CHECK_DELAY_MS, MIN_SLUG_LENGTH } from './components/slug-field';
export { CategoryManager } from './components/category-manager';
export { landingAfterSignIn } from './landing-after-sign-in';
