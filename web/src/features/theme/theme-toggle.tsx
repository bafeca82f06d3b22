import { MoonIcon, SunIcon } from '@/components/icons';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { selectTheme, themeToggled } from './theme-slice';

export function ThemeToggle() {
  const dispatch = useAppDispatch();
  const mode = useAppSelector(selectTheme);
  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      data-testid="theme-toggle"
      onClick={() => dispatch(themeToggled())}
    >
      {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
