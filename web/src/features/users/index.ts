export * from './users-slice';
