export * from './search-slice';
export { SearchBox, SEARCH_PLACEHOLDER } from './components/search-box';
export { SearchModal } from './components/search-modal';
