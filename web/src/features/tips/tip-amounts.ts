/** The support card's amount: chosen or typed, checked against the post's limits, and its split. */
import { formatMoney, platformFee, toMinorUnits } from '@/lib/money';
import type { TipDraft } from './tip-draft';

export interface TipLimits {
  currency: string;
  minimum: number;
  maximum: number;
}

/** The amount of a draft in minor units: the suggested one chosen, or the one typed (null if none). */
export function draftAmount(draft: Pick<TipDraft, 'choice' | 'other'>, currency: string): number | null {
  if (draft.choice === 'other') return toMinorUnits(draft.other, currency);
  return draft.choice;
}

/** What is wrong with an amount (minor units), or null. */
export function amountProblem(amount: number | null, limits: TipLimits, typed = true): string | null {
  const range = `between ${formatMoney(limits.minimum, limits.currency)} and ${formatMoney(limits.maximum, limits.currency)}`;
  if (amount === null) return typed ? `Enter an amount ${range}, such as 5 or 5.50.` : 'Choose an amount.';
  if (amount < limits.minimum || amount > limits.maximum) return `Enter an amount ${range}.`;
  return null;
}

/** The platform's fee on a tip and what the writer receives (minor units). */
export function tipSplit(amount: number, feePercent: number): { fee: number; net: number } {
  const fee = platformFee(amount, feePercent);
  return { fee, net: amount - fee };
}
