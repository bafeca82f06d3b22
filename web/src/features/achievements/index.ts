export * from './achievements';
export { BadgeBoard } from './components/badge-board';
