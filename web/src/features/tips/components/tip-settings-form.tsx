/**
 * The writer's tip settings: the currency readers tip in and the one to five amounts the support
 * card suggests (typed in major units, saved in minor units).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useGetTipsSettingsQuery, usePutTipsSettingsMutation, type GetTipsSettingsApiResponse } from '@/api/endpoints';
import { FormError, FormStatus } from '@/components/form-field';
import { errorMessage } from '@/lib/http';
import { formatMoney, toMajorText, toMinorUnits } from '@/lib/money';
import { TIP_FALLBACK, TIP_MESSAGES } from '../tips-api';

export const MAX_SUGGESTED = 5;

/** "3, 5, 10" → minor units, or what is wrong with it. */
export function parseSuggestedAmounts(text: string, currency: string): { amounts: number[] } | { problem: string } {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 1 || parts.length > MAX_SUGGESTED) return { problem: `Suggest 1 to ${MAX_SUGGESTED} amounts, separated by commas.` };
  const amounts: number[] = [];
  for (const part of parts) {
    const amount = toMinorUnits(part, currency);
    if (amount === null || amount <= 0) return { problem: `“${part}” is not an amount: write amounts such as 3, 5 or 7.50.` };
    amounts.push(amount);
  }
  if (new Set(amounts).size !== amounts.length) return { problem: 'Suggest each amount once.' };
  return { amounts: amounts.sort((a, b) => a - b) };
}

/** The currencies the server offers (the saved one first while they load). */
function currenciesOf(data: GetTipsSettingsApiResponse | undefined): string[] {
  return data?.currencies ?? [];
}

export function TipSettingsForm() {
  const { data, error, isError } = useGetTipsSettingsQuery();
  const [save, { isLoading: saving }] = usePutTipsSettingsMutation();
  const [currency, setCurrency] = useState('usd');
  const [amounts, setAmounts] = useState('');
  const [status, setStatus] = useState<{ message: string | null; error: string | null }>({ message: null, error: null });
  const loaded = data?.settings;
  useEffect(() => {
    if (!loaded) return;
    setCurrency(loaded.currency);
    setAmounts(loaded.suggestedAmounts.map((a) => toMajorText(a, loaded.currency)).join(', '));
  }, [loaded]);
  const currencies = currenciesOf(data);
  const options = currencies.includes(currency) ? currencies : [currency, ...currencies];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseSuggestedAmounts(amounts, currency);
    if ('problem' in parsed) {
      setStatus({ message: null, error: parsed.problem });
      return;
    }
    setStatus({ message: null, error: null });
    try {
      const answer = await save({ body: { currency, suggestedAmounts: parsed.amounts } }).unwrap();
      setStatus({ message: answer.message || TIP_MESSAGES.settingsSaved, error: null });
    } catch (e) {
      setStatus({ message: null, error: errorMessage(e, TIP_FALLBACK.saveSettings) });
    }
  };

  const preview = parseSuggestedAmounts(amounts, currency);
  return (
    <section className="panel tip-settings" aria-labelledby="tip-settings-title" data-testid="tip-settings">
      <h2 id="tip-settings-title">Tip settings</h2>
      {isError ? (
        <p className="form-error" role="alert">
          {errorMessage(error, TIP_FALLBACK.settings)}
        </p>
      ) : null}
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={saving}>
        <div className="grid-3">
          <div className="field">
            <label htmlFor="tip-currency">Currency</label>
            <select id="tip-currency" value={currency} disabled={!loaded} onChange={(e) => setCurrency(e.target.value)}>
              {options.map((c) => (
                <option key={c} value={c}>
                  {c.toUpperCase()}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="tip-amounts">Suggested amounts</label>
            <input id="tip-amounts" value={amounts} disabled={!loaded} aria-describedby="tip-amounts-hint" onChange={(e) => setAmounts(e.target.value)} />
            <small id="tip-amounts-hint" className="muted">
              1 to {MAX_SUGGESTED} amounts, separated by commas
              {'amounts' in preview ? `: ${preview.amounts.map((a) => formatMoney(a, currency)).join(' · ')}` : ''}
            </small>
          </div>
        </div>
        <FormError message={status.error} />
        <FormStatus message={status.message} />
        <div className="form-actions form-actions--start">
          <button type="submit" className="button" disabled={saving || !loaded}>
            {saving ? 'Saving...' : 'Save tip settings'}
          </button>
        </div>
      </form>
    </section>
  );
}
