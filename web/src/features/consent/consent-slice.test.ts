import { setupStore } from '@/app/store';
import { mockApi } from '@/test/mock-api';
import { consentChosen, consentReducer, initialConsentState, saveConsent } from './consent-slice';

describe('cookie consent', () => {
  it('starts as null, then accepted (true) or declined (false)', () => {
    const start = initialConsentState();
    expect(start.userCookieConsent).toBeNull();
    expect(consentReducer(start, consentChosen(true)).userCookieConsent).toBe(true);
    expect(consentReducer(start, consentChosen(false)).userCookieConsent).toBe(false);
  });

  it('reads userCookieConsent from local storage', () => {
    localStorage.setItem('userCookieConsent', 'true');
    expect(initialConsentState().userCookieConsent).toBe(true);
    localStorage.setItem('userCookieConsent', 'false');
    expect(initialConsentState().userCookieConsent).toBe(false);
  });

  it('saves the choice to POST /user/consent', async () => {
    mockApi.on('POST', '/user/consent', { body: { message: 'saved' } });
    await setupStore().dispatch(saveConsent(true));
    expect(mockApi.calls('POST', '/user/consent')[0].body).toEqual({ consent: true });
  });

  it("only logs 'Failed to save consent'", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockApi.on('POST', '/user/consent', { status: 500 });
    const result = await setupStore().dispatch(saveConsent(false));
    expect(result.meta.requestStatus).toBe('fulfilled');
    expect(warn).toHaveBeenCalledWith('Failed to save consent', 'Failed to save consent');
  });
});
