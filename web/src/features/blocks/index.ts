export * from './blocks-slice';
