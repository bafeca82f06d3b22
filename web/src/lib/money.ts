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

/**
 * An amount typed by a person (major units: "5", "5.5", "1,250.00") → minor units; a currency
 * without a minor unit takes whole numbers only. Null when the text is not an amount. A comma
 * is only a thousands separator: "7,5" is refused rather than read as 75.
 */
export function toMinorUnits(text: string, currency: string): number | null {
  let clean = text.trim().replace(/\s/g, '');
  if (clean.includes(',')) {
    if (!/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(clean)) return null;
    clean = clean.replace(/,/g, '');
  }
  const perMajor = minorUnitsPerMajor(currency);
  const pattern = perMajor === 1 ? /^\d{1,9}$/ : /^\d{1,9}(\.\d{1,2})?$/;
  if (!pattern.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  return Number(whole) * perMajor + (perMajor === 1 ? 0 : Number(fraction.padEnd(2, '0')));
}

/** Minor units → the text a person would type: 500 → "5", 550 → "5.50", 500 'jpy' → "500". */
export function toMajorText(minor: number, currency: string): string {
  const perMajor = minorUnitsPerMajor(currency);
  if (minor % perMajor === 0) return String(minor / perMajor);
  return (minor / perMajor).toFixed(2);
}

/** The platform's fee on `amount` at `percent`, to the nearest minor unit, half up (as the server). */
export function platformFee(amount: number, percent: number): number {
  const basisPoints = Math.round(percent * 100);
  return Math.min(amount, Math.max(0, Math.floor((amount * basisPoints + 5000) / 10000)));
}
