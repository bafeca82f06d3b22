export * from './achievements-slice';
export { BadgeBoard } from './components/badge-board';
