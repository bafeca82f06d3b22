export * from './theme-slice';
export { useThemeEffects } from './use-theme-effects';
export { ThemeToggle } from './theme-toggle';
