import { describe, expect, it } from 'vitest';
import { countNoun, countText } from './count-text.ts';

describe('countText', () => {
  it('prints every count as toLocaleString en-US does', () => {
    const values = [0, -0, 1, -1, 7, 999, 1000, -1000, 1001, 9999, 10_000, 99_999, 100_000, 285_513, 999_999, 1_000_000, 12_345_678, -987_654_321];
    for (let k = 0; k < 16; k++) values.push(10 ** k - 1, 10 ** k, 10 ** k + 1, 7 * 10 ** k + 13);
    values.push(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 53, 1.5, 1234.5678, -0.25, NaN, Infinity, -Infinity);
    for (const x of values) expect([x, countText(x)]).toEqual([x, x.toLocaleString('en-US')]);
  });
});

describe('countNoun', () => {
  it('takes the singular for exactly one, the plural otherwise, the count as countText prints it', () => {
    expect([0, 1, 2, 1234].map((n) => countNoun(n, 'trace'))).toEqual(['0 traces', '1 trace', '2 traces', '1,234 traces']);
    expect(countNoun(1, 'entry', 'entries')).toBe('1 entry');
    expect(countNoun(3, 'entry', 'entries')).toBe('3 entries');
  });
});
