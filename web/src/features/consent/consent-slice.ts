/** Cookie consent: null, then accepted (true) or declined (false); kept locally and saved to the server. */
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { errorMessage, http } from '@/lib/http';
import { CONSENT_KEY, storage } from '@/lib/storage';

export const SAVE_CONSENT_FAILED = 'Failed to save consent';

export interface ConsentState {
  userCookieConsent: boolean | null;
}

export function readStoredConsent(): boolean | null {
  const value = storage.get(CONSENT_KEY);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

export function initialConsentState(): ConsentState {
  return { userCookieConsent: readStoredConsent() };
}

/** `POST /user/consent`; a failure is only logged. */
export const saveConsent = createAsyncThunk('consent/save', async (consent: boolean) => {
  try {
    await http.post('/user/consent', { consent }, SAVE_CONSENT_FAILED);
  } catch (e) {
    console.warn(SAVE_CONSENT_FAILED, errorMessage(e, SAVE_CONSENT_FAILED));
  }
});

const consentSlice = createSlice({
  name: 'consent',
  initialState: initialConsentState,
  reducers: {
    consentChosen(state, action: PayloadAction<boolean>) {
      state.userCookieConsent = action.payload;
    },
  },
});

export const { consentChosen } = consentSlice.actions;
export const consentReducer = consentSlice.reducer;
export const selectCookieConsent = (state: { consent: ConsentState }) => state.consent.userCookieConsent;
