// Amounts travel in minor units; people read and type major units.
import { formatMoney, platformFee, toMajorText, toMinorUnits } from './money';

describe('amounts typed by people', () => {
  it.each([
    ['5', 'usd', 500],
    ['5.5', 'usd', 550],
    ['5.50', 'usd', 550],
    [' 0.29 ', 'usd', 29],
    ['1,250.75', 'eur', 125075],
    ['500', 'jpy', 500],
  ])('%j %s → %d minor units', (text, currency, minor) => {
    expect(toMinorUnits(text, currency)).toBe(minor);
  });

  it.each([[''], ['abc'], ['5.555'], ['-5'], ['5.'], ['.5'], ['1e3'], ['7,5'], ['12,50'], ['1,25,000']])('%j is not an amount', (text) => {
    expect(toMinorUnits(text, 'usd')).toBeNull();
  });

  it('takes whole numbers only in a currency without a minor unit', () => {
    expect(toMinorUnits('5.5', 'jpy')).toBeNull();
  });

  it('go back to the text a person would type', () => {
    expect(toMajorText(500, 'usd')).toBe('5');
    expect(toMajorText(550, 'usd')).toBe('5.50');
    expect(toMajorText(500, 'jpy')).toBe('500');
    expect(toMinorUnits(toMajorText(1999, 'usd'), 'usd')).toBe(1999);
  });

  it('are shown with their currency', () => {
    expect(formatMoney(500, 'usd')).toMatch(/\$5\.00/);
  });
});

describe('the platform fee', () => {
  it('is rounded to the nearest minor unit, half up, and never above the amount', () => {
    expect(platformFee(500, 10)).toBe(50);
    expect(platformFee(505, 10)).toBe(51);
    expect(platformFee(504, 10)).toBe(50);
    expect(platformFee(333, 12.5)).toBe(42);
    expect(platformFee(100, 0)).toBe(0);
    expect(platformFee(100, 150)).toBe(100);
  });
});
