import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson, sameCanonical } from './canonical.ts';

describe('canonicalJson', () => {
  it('encodes equal objects equally whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 }),
    );
  });
  it('drops undefined fields and keeps array order', () => {
    expect(canonicalJson({ a: undefined, b: [2, 1] })).toBe('{"b":[2,1]}');
  });
});

describe('sameCanonical', () => {
  // Small leaves, so that two drawn values are often equal, or equal only once encoded (-0 and 0, NaN and null, undefined and a missing key).
  const leaf = fc.constantFrom<unknown>(0, -0, 1, NaN, Infinity, null, undefined, '', 'a', '0', true, false, () => 1);
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('v'), { maxKeys: 3 })),
  })).v;

  it('says what comparing the canonical encodings says, for any two values', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(sameCanonical(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
      }),
      { numRuns: 3000 },
    );
  });

  it('compares a value with a copy of itself with its keys in another order', () => {
    fc.assert(
      fc.property(value, (a) => {
        const copy = JSON.parse(JSON.stringify({ x: a }) ?? '{}') as { x?: unknown };
        expect(sameCanonical(a, copy.x)).toBe(canonicalJson(a) === canonicalJson(copy.x));
        expect(sameCanonical({ p: 1, q: a }, { q: a, p: 1 })).toBe(true);
      }),
    );
  });
});
