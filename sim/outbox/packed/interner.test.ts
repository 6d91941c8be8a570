/**
 * The interner keys values by canonical numbers (`Canon`), built from their
 * parts' numbers: two values share a number exactly when their canonical
 * JSON is equal, whatever the order of their fields, undefined fields, or
 * which parts are shared objects already numbered.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { canonicalKey } from '../../core/canonical.ts';
import { Canon, Interner } from './interner.ts';

/** Plain data as states hold it, with undefined fields and values JSON reads as null. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(fc.constant(null), fc.constant(undefined), fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'b', '1', '#1', '"', ',', 'a,b', ''), fc.constant(Number.NaN)),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', 'a,b', '"'), tie('node'), { maxKeys: 3 })),
})).node;

/** The same value rebuilt: fields in reverse order, fresh objects throughout. */
function reordered(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(reordered);
  return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reordered(x)]));
}

describe('canonical numbers', () => {
  test.prop([fc.array(value, { minLength: 2, maxLength: 6 })])('equal exactly when the canonical JSON is', (values) => {
    const canon = new Canon();
    // Numbered in one table, some as rebuilt copies: known parts and new ones mix.
    const all = [...values, ...values.map(reordered)];
    const numbers = all.map((v) => canon.of(v));
    for (let i = 0; i < all.length; i++) {
      for (let j = 0; j < all.length; j++) {
        expect(numbers[i] === numbers[j]).toBe(canonicalKey(all[i]) === canonicalKey(all[j]));
      }
    }
  });

  it('tells apart what only the text of a part would confuse', () => {
    const canon = new Canon();
    const shared = { id: 'a' };
    const pairs: [unknown, unknown][] = [
      [{ 'a,b': 1, c: 2 }, { a: 1, 'b,c': 2 }],
      [['1'], [1]],
      [[shared], ['#1']],
      [{ x: [] }, { x: {} }],
      [[1, 2], [[1, 2]]],
    ];
    for (const [a, b] of pairs) expect(canon.of(a)).not.toBe(canon.of(b));
    // A part that is an object is not the number it was given.
    expect(canon.of([shared])).not.toBe(canon.of([canon.of(shared)]));
    expect(canon.of({ x: shared })).not.toBe(canon.of({ x: canon.of(shared) }));
    expect(canon.of({ x: shared, y: undefined })).toBe(canon.of({ x: { id: 'a' } }));
    expect(canon.of([undefined, Number.NaN])).toBe(canon.of([null, null]));
  });

  it('interners sharing one table give equal values one id each, and 0 to undefined', () => {
    const canon = new Canon();
    const files = new Interner<{ id: string; body: string }>(canon);
    const lists = new Interner<{ id: string; body: string }[]>(canon);
    const f = { id: 'a', body: 'A' };
    expect(files.id(undefined)).toBe(0);
    expect(files.id(f)).toBe(1);
    expect(files.id({ body: 'A', id: 'a' })).toBe(1);
    expect(lists.id([f])).toBe(1);
    expect(lists.id([{ body: 'A', id: 'a' }])).toBe(1);
    expect(files.value(1)).toBe(f);
    expect([files.size, lists.size]).toEqual([1, 1]);
  });
});
