import { describe, expect, it } from 'vitest';
import { FingerprintSet, fingerprint } from './fingerprint.ts';

describe('FingerprintSet', () => {
  it('adds each distinct key once, through several growths', () => {
    const set = new FingerprintSet(2);
    for (let i = 0; i < 50_000; i++) expect(set.add(...fingerprint(`state-${i}`))).toBe(true);
    for (let i = 0; i < 50_000; i += 7) expect(set.add(...fingerprint(`state-${i}`))).toBe(false);
    expect(set.size).toBe(50_000);
    expect(set.bytes).toBeLessThanOrEqual(50_000 * 16 * 2);
  });
  it('has: true for what was added (the pair (0, 0) too), false for the rest, and adds nothing', () => {
    const set = new FingerprintSet(2);
    for (let i = 0; i < 5_000; i += 2) set.add(...fingerprint(`state-${i}`));
    set.add(0, 0);
    for (let i = 0; i < 5_000; i++) expect(set.has(...fingerprint(`state-${i}`))).toBe(i % 2 === 0);
    expect(set.has(0, 0)).toBe(true);
    expect(set.size).toBe(2_501);
  });
  it('gives different fingerprints to near keys', () => {
    expect(fingerprint('{"a":1}')).not.toEqual(fingerprint('{"a":2}'));
    expect(fingerprint('')).not.toEqual(fingerprint(' '));
  });
});
