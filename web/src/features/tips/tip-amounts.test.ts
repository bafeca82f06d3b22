// The support card's amount: a suggested one or one typed in major units, within the limits.
import { amountProblem, draftAmount, tipSplit } from './tip-amounts';

const limits = { currency: 'usd', minimum: 50, maximum: 50000 };

describe('the amount of a tip', () => {
  it('is the suggested amount chosen, or the other amount typed, in minor units', () => {
    expect(draftAmount({ choice: 500, other: '9' }, 'usd')).toBe(500);
    expect(draftAmount({ choice: 'other', other: '7.5' }, 'usd')).toBe(750);
    expect(draftAmount({ choice: 'other', other: '7,5' }, 'usd')).toBeNull();
    expect(draftAmount({ choice: null, other: '' }, 'usd')).toBeNull();
  });

  it('must lie between the minimum and the maximum', () => {
    expect(amountProblem(50, limits)).toBeNull();
    expect(amountProblem(50000, limits)).toBeNull();
    expect(amountProblem(49, limits)).toBe('Enter an amount between $0.50 and $500.00.');
    expect(amountProblem(50001, limits)).toBe('Enter an amount between $0.50 and $500.00.');
    expect(amountProblem(null, limits)).toBe('Enter an amount between $0.50 and $500.00, such as 5 or 5.50.');
    expect(amountProblem(null, limits, false)).toBe('Choose an amount.');
  });

  it('is split into the platform fee and what the writer receives', () => {
    expect(tipSplit(500, 10)).toEqual({ fee: 50, net: 450 });
    expect(tipSplit(1999, 7.5)).toEqual({ fee: 150, net: 1849 });
  });
});
