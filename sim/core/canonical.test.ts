import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.ts';

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
