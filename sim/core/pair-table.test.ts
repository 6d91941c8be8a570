import { describe, expect, it } from 'vitest';
import { PairTable } from './pair-table.ts';

describe('PairTable', () => {
  it('keeps every pair apart through growth', () => {
    const t = new PairTable();
    for (let a = 0; a < 300; a++) for (let b = 0; b < 30; b++) t.set(a, b, a * 1000 + b);
    expect(t.size).toBe(9000);
    for (let a = 0; a < 300; a++) for (let b = 0; b < 30; b++) expect(t.get(a, b)).toBe(a * 1000 + b);
    expect(t.get(300, 0)).toBe(-1);
    expect(t.get(0, 30)).toBe(-1);
  });

  it('stores zero as a value, unlike an empty slot', () => {
    const t = new PairTable();
    t.set(5, 7, 0);
    expect(t.get(5, 7)).toBe(0);
    expect(t.get(7, 5)).toBe(-1);
  });
});
