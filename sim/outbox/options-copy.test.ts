import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../core/canonical.ts';
import { swarmOptions } from './options.ts';
import { uniformOptions } from './options-copy.ts';

describe('uniformOptions', () => {
  it('copies every seed’s options with the same keys, in the same order, and the same values', () => {
    // Seeds 1-256 are rewritten by the covering rows (spreads); later ones are the drawn literal.
    for (const seed of [1, 2, 3, 100, 256, 257, 1000, 5000]) {
      for (const fixed of [{}, { settings: { dedupeWindow: 2 } }, { atMostOnce: true, skew: true }]) {
        const drawn = swarmOptions(seed, fixed);
        const copy = uniformOptions(drawn);
        expect(copy).not.toBe(drawn);
        expect(Object.keys(copy)).toEqual(Object.keys(drawn));
        expect(Object.keys(copy.weights)).toEqual(Object.keys(drawn.weights));
        expect(copy.weights).not.toBe(drawn.weights);
        expect(Object.keys(copy.settings ?? {})).toEqual(Object.keys(drawn.settings ?? {}));
        expect(canonicalJson(copy)).toBe(canonicalJson(drawn));
        expect('atMostOnce' in copy).toBe('atMostOnce' in drawn);
      }
    }
  });

  it('keeps absent optional fields absent', () => {
    const { settings: _settings, ...without } = swarmOptions(7);
    const copy = uniformOptions(without);
    expect('settings' in copy).toBe(false);
    expect('atMostOnce' in copy).toBe(false);
  });
});
