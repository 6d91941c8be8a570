/** Pruning the shared cache of rule-file bundles (rules-bundle.ts): the newest 32 stay, and so does any written in the last day. */
import { describe, expect, it } from 'vitest';
import { PRUNE_AFTER_MS, prunable } from './rules-bundle.ts';

const HOUR = 60 * 60 * 1000;
const bundles = (n: number, ageOf: (i: number) => number, now: number) => Array.from({ length: n }, (_, i) => ({ f: `rules-${i}.mjs`, at: now - ageOf(i) }));

describe('pruning the bundle cache', () => {
  it('keeps a bundle a running command may still import, however many newer ones other processes wrote', () => {
    const now = 10 * PRUNE_AFTER_MS;
    // 40 bundles written in the last hour (a test run, a reviewer's batch beside a long check): none is removed.
    expect(prunable(bundles(40, (i) => i * 60_000, now), now)).toEqual([]);
  });

  it('removes, beyond the newest 32, those unwritten for a day', () => {
    const now = 10 * PRUNE_AFTER_MS;
    // One an hour: the 33rd newest is 32 hours old.
    const gone = prunable(bundles(40, (i) => i * HOUR, now), now);
    expect(gone).toEqual(Array.from({ length: 8 }, (_, i) => `rules-${32 + i}.mjs`));
    // Old, but among the newest 32: kept.
    expect(prunable(bundles(32, (i) => 2 * PRUNE_AFTER_MS + i, now), now)).toEqual([]);
  });
});
