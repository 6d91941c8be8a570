import { describe, expect, it } from 'vitest';
import { fingerprint, FingerprintSet } from './fingerprint.ts';
import { NumberedFingerprintSet } from './numbered-fingerprints.ts';

describe('NumberedFingerprintSet', () => {
  it('numbers each fingerprint in the order added, and keeps the number through several growths', () => {
    const set = new NumberedFingerprintSet(2);
    for (let i = 0; i < 20_000; i++) {
      expect(set.add(...fingerprint(`state-${i}`))).toBe(true);
      expect(set.last).toBe(i);
    }
    for (let i = 0; i < 20_000; i += 3) {
      expect(set.add(...fingerprint(`state-${i}`))).toBe(false);
      expect(set.last).toBe(i);
      expect(set.idOf(...fingerprint(`state-${i}`))).toBe(i);
    }
    expect(set.idOf(...fingerprint('absent'))).toBe(-1);
    expect(set.has(...fingerprint('absent'))).toBe(false);
    expect(set.size).toBe(20_000);
  });
  it('holds the pair (0, 0) as the plain set does, and takes 12 bytes a slot against its 8', () => {
    const set = new NumberedFingerprintSet(2);
    const plain = new FingerprintSet(2);
    set.add(0, 0);
    plain.add(0, 0);
    expect([set.has(0, 0), set.has(0, 1), set.idOf(0, 0)]).toEqual([true, true, 0]);
    for (let i = 0; i < 5_000; i++) {
      set.add(...fingerprint(`s${i}`));
      plain.add(...fingerprint(`s${i}`));
    }
    expect(set.bytes).toBe(plain.bytes * 1.5);
    expect(set.growthBytes).toBe(plain.growthBytes * 1.5);
  });
});
