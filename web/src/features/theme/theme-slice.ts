/** Light or dark theme, kept in local storage, following the system preference if none is stored. */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { prefersDark } from '@/lib/browser';
import { storage, THEME_KEY } from '@/lib/storage';

export type ThemeMode = 'light' | 'dark';

export interface ThemeState {
  mode: ThemeMode;
  /** True once the visitor chose a theme; until then the system preference is followed. */
  stored: boolean;
}

export function readStoredTheme(): ThemeMode | null {
  const value = storage.get(THEME_KEY);
  return value === 'light' || value === 'dark' ? value : null;
}

export function initialThemeState(): ThemeState {
  const stored = readStoredTheme();
  return { mode: stored ?? (prefersDark() ? 'dark' : 'light'), stored: stored !== null };
}

const themeSlice = createSlice({
  name: 'theme',
  initialState: initialThemeState,
  reducers: {
    themeToggled(state) {
      state.mode = state.mode === 'dark' ? 'light' : 'dark';
      state.stored = true;
    },
    themeChosen(state, action: PayloadAction<ThemeMode>) {
      state.mode = action.payload;
      state.stored = true;
    },
    systemThemeChanged(state, action: PayloadAction<ThemeMode>) {
      if (!state.stored) state.mode = action.payload;
    },
  },
});

export const { themeToggled, themeChosen, systemThemeChanged } = themeSlice.actions;
export const themeReducer = themeSlice.reducer;
export const selectTheme = (state: { theme: ThemeState }) => state.theme.mode;
