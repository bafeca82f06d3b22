/**
 * Amounts travel in minor units (cents, paise) with an ISO currency code (docs/decisions.md
 * "Money"); this turns them into text for people.
 */

/** Currencies whose amounts have no minor unit. */
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);

export function minorUnitsPerMajor(currency: string): number {
  return ZERO_DECIMAL.has(currency.toLowerCase()) ? 1 : 100;
}

/** 1999, 'usd' → "$19.99". */
export function formatMoney(minor: number | null | undefined, currency: string | null | undefined): string {
  const code = (currency || 'usd').toUpperCase();
  const amount = (Number(minor) || 0) / minorUnitsPerMajor(code);
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${code}`;
  }
}

/** "19.99" typed by a person → 1999 minor units; null when it is not an amount. */
export function parseMoney(text: string, currency: string): number | null {
  const clean = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  return Math.round(Number(clean) * minorUnitsPerMajor(currency));
}

/** "month" → "per month". */
export function intervalLabel(interval: string | null | undefined): string {
  return interval === 'year' ? 'per year' : interval === 'month' ? 'per month' : interval ? `per ${interval}` : '';
}
