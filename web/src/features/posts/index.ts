export * from './posts-slice';
