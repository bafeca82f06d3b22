export * from './guest-slice';
