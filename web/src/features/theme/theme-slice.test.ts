import { initialThemeState, systemThemeChanged, themeChosen, themeReducer, themeToggled } from './theme-slice';

function preferDark(dark: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: dark && query.includes('dark'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  })) as unknown as typeof window.matchMedia;
}

describe('theme', () => {
  it('follows the system preference when nothing is stored', () => {
    preferDark(true);
    expect(initialThemeState()).toEqual({ mode: 'dark', stored: false });
    preferDark(false);
    expect(initialThemeState()).toEqual({ mode: 'light', stored: false });
  });

  it('uses the stored theme over the system preference', () => {
    preferDark(true);
    localStorage.setItem('theme', 'light');
    expect(initialThemeState()).toEqual({ mode: 'light', stored: true });
  });

  it('ignores a stored value that is neither light nor dark', () => {
    localStorage.setItem('theme', 'purple');
    expect(initialThemeState().stored).toBe(false);
  });

  it('toggles between light and dark and remembers the choice', () => {
    let state = themeReducer({ mode: 'light', stored: false }, themeToggled());
    expect(state).toEqual({ mode: 'dark', stored: true });
    state = themeReducer(state, themeToggled());
    expect(state).toEqual({ mode: 'light', stored: true });
    expect(themeReducer(state, themeChosen('dark')).mode).toBe('dark');
  });

  it('follows system changes only while no theme is chosen', () => {
    expect(themeReducer({ mode: 'light', stored: false }, systemThemeChanged('dark')).mode).toBe('dark');
    expect(themeReducer({ mode: 'light', stored: true }, systemThemeChanged('dark')).mode).toBe('light');
  });
});
