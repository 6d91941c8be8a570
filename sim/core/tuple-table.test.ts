import { describe, expect, it } from 'vitest';
import { fingerprintInts, hashInts, TupleTable } from './tuple-table.ts';

const print = (v: number[]): string => {
  const into = new Uint32Array(2);
  fingerprintInts(Int32Array.from(v), v.length, into);
  return `${into[0]}:${into[1]}`;
};

describe('fingerprintInts', () => {
  it('tells apart vectors that differ in one slot, in the order of two slots, or in length', () => {
    const base = Array.from({ length: 22 }, (_, i) => i % 5);
    const seen = new Set<string>([print(base)]);
    for (let i = 0; i < base.length; i++) {
      for (const d of [1, -1, 1 << 16]) {
        const v = [...base];
        v[i] += d;
        seen.add(print(v));
      }
      if (i + 1 < base.length && base[i] !== base[i + 1]) {
        const v = [...base];
        [v[i], v[i + 1]] = [v[i + 1], v[i]];
        seen.add(print(v));
      }
    }
    seen.add(print(base.slice(0, 21)));
    seen.add(print([...base, 0]));
    const swaps = base.filter((x, i) => i + 1 < base.length && x !== base[i + 1]).length;
    expect(seen.size).toBe(1 + base.length * 3 + swaps + 2);
  });

  it('spreads a dense grid of small vectors without a collision in either half', () => {
    const halves: [Set<number>, Set<number>] = [new Set(), new Set()];
    const into = new Uint32Array(2);
    const v = new Int32Array(22);
    let n = 0;
    for (let a = 0; a < 40; a++) {
      for (let b = 0; b < 40; b++) {
        for (let c = 0; c < 40; c++) {
          v[3] = a;
          v[11] = b;
          v[20] = c;
          fingerprintInts(v, 22, into);
          halves[0].add(into[0]);
          halves[1].add(into[1]);
          n++;
        }
      }
    }
    // 64,000 values in 2^32: a collision in a half is unlikely (p < 0.4) but
    // allowed; more than a handful would mean the lanes mix poorly.
    expect(n - halves[0].size).toBeLessThanOrEqual(3);
    expect(n - halves[1].size).toBeLessThanOrEqual(3);
  });
});

describe('TupleTable', () => {
  it('gives each distinct tuple one dense index, through growth', () => {
    const t = new TupleTable();
    const key = new Int32Array(3);
    for (let i = 0; i < 5000; i++) {
      key.set([i, i % 7, -i]);
      expect(t.find(key, 3)).toBe(-1);
      expect(t.add(key, 3)).toBe(i);
    }
    for (let i = 0; i < 5000; i++) {
      key.set([i, i % 7, -i]);
      expect(t.find(key, 3)).toBe(i);
      expect(t.find(key, 2)).toBe(-1);
    }
  });

  it('hashes into 30 bits (a small integer to V8, never a boxed number), spread over all of them', () => {
    const key = new Int32Array(4);
    let high = 0;
    for (let i = 0; i < 4096; i++) {
      key[0] = i;
      key[1] = i * 7919;
      const h = hashInts(key, 4);
      expect(Number.isInteger(h) && h >= 0 && h < 2 ** 30).toBe(true);
      if (h >= 2 ** 29) high++;
    }
    expect(high).toBeGreaterThan(1500);
    expect(high).toBeLessThan(2600);
  });
});
