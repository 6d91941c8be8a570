import { describe, expect, it } from 'vitest';
import { CONDITIONS, runConditions } from './conditions.ts';

/** docs/receipts.md, controlled conditions: cumulative callbacks / effects, in table order. */
const PUBLISHED: [string, string, number, number][] = [
  ['C1', 'intact completion', 1, 1],
  ['C2', 'an unrelated malformed line only', 1, 1],
  ['C3', 'damaged completion, intact pending', 2, 2],
  ['C4', 'both target receipts damaged', 2, 2],
  ['C5', 'both damaged, revision changed', 1, 1],
  ['C6', 'the reader throws', 1, 1],
  ['C7', 'completion rewritten to an unknown schema version', 2, 2],
  ['C8', 'damaged completion, intact pending, revision changed', 1, 1],
  ['C9', 'damaged completion, executor dedupes by key', 2, 1],
];

describe('controlled conditions (counting executor, fresh kernel instance per retry)', () => {
  const rows = runConditions();

  it('reproduces the published callbacks / effects table exactly, in order', () => {
    expect(rows.map((r) => [r.id, r.name, r.callbacks, r.effects])).toEqual(PUBLISHED);
    expect(CONDITIONS.map((c) => c.id)).toEqual(PUBLISHED.map((p) => p[0]));
  });

  it('says what each second handling did', () => {
    expect(rows.map((r) => r.result)).toEqual([
      'replays the completed result',
      'replays the completed result',
      'finds the older pending row (same revision); calls again',
      'nothing usable found; calls again',
      'rejects the stale revision; no call',
      'store unavailable; no call',
      'finds the older pending row (same revision); calls again',
      'sees the state advanced (pending under an older revision); no call',
      'finds the older pending row (same revision); calls again; the executor coalesced the effect',
    ]);
  });

  it('reports the second read: record and diagnostic separately', () => {
    expect(rows.map((r) => [r.id, r.secondRead.record, r.secondRead.diagnostic, r.secondRead.skipped.corrupt, r.secondRead.skipped.unknownVersion])).toEqual([
      ['C1', 'completed', 'found', 0, 0],
      ['C2', 'completed', 'corrupt', 1, 0],
      ['C3', 'pending', 'corrupt', 1, 0],
      ['C4', 'none', 'corrupt', 2, 0],
      ['C5', 'none', 'corrupt', 2, 0],
      ['C6', 'none', 'threw', 0, 0],
      ['C7', 'pending', 'unknown-version', 0, 1],
      ['C8', 'pending', 'corrupt', 1, 0],
      ['C9', 'pending', 'corrupt', 1, 0],
    ]);
  });

  it('keeps the layers apart: a second callback is a second start, but not always a second effect', () => {
    expect(rows.map((r) => [r.id, r.callbacks, r.starts, r.effects, r.layers.attempts])).toEqual([
      ['C1', 1, 1, 1, 0],
      ['C2', 1, 1, 1, 0],
      ['C3', 2, 2, 2, 0],
      ['C4', 2, 2, 2, 0],
      ['C5', 1, 1, 1, 0],
      ['C6', 1, 1, 1, 0],
      ['C7', 2, 2, 2, 0],
      ['C8', 1, 1, 1, 0],
      ['C9', 2, 2, 1, 0],
    ]);
    // Without a dispatcher the property is broken exactly where the kernel called twice.
    expect(rows.filter((r) => r.violations.length > 0).map((r) => r.id)).toEqual(['C3', 'C4', 'C7', 'C9']);
    for (const r of rows) expect(r.layers.bytesKept).toBeGreaterThan(0);
  });
});
