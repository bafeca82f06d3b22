import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { storage, THEME_KEY } from '@/lib/storage';
import { systemThemeChanged } from './theme-slice';

/** Applies the theme to <html>, remembers a chosen one and follows the system while none is chosen. */
export function useThemeEffects(): void {
  const dispatch = useAppDispatch();
  const { mode, stored } = useAppSelector((state) => state.theme);

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = mode;
    root.classList.toggle('dark', mode === 'dark');
    root.style.colorScheme = mode;
    if (stored) storage.set(THEME_KEY, mode);
  }, [mode, stored]);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = (event: MediaQueryListEvent) => dispatch(systemThemeChanged(event.matches ? 'dark' : 'light'));
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, [dispatch]);
}
