/**
 * The covering rows are built on a flat table of flags (swarm-coverage.ts),
 * for speed: every thread builds them before its first seeds. They must be
 * the rows of the construction they replaced, one set of pairs per two
 * features, which is kept here as the oracle: the same rows for the swarm's
 * own features (every fixed option the CLI can give) and for many others.
 */
import { describe, expect, it } from 'vitest';
import type { FixedOptions } from './options.ts';
import { adoptCoveringRows, COVERED_SEEDS, coveringArray, coveringRows, swarmFeatures, tieBreaker, type Row } from './swarm-coverage.ts';

/** The construction of the rows before the flat table: a set of uncovered pairs per two features (insertion order). */
function coveringArrayBySets(sizes: readonly number[], seed = 21, quiet: readonly number[] = []): Row[] {
  const n = sizes.length;
  const uncovered: Set<number>[][] = sizes.map((_, i) =>
    sizes.map((__, j) => {
      const s = new Set<number>();
      if (j > i) for (let k = 0; k < sizes[i] * sizes[j]; k++) s.add(k);
      return s;
    }),
  );
  let left = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) left += sizes[i] * sizes[j];
  const rand = tieBreaker(seed);
  const rows: Row[] = [];
  const gain = (row: Row, f: number, v: number): number => {
    let g = 0;
    for (let k = 0; k < n; k++) {
      if (k === f || row[k] < 0) continue;
      const [i, j, a, b] = k < f ? [k, f, row[k], v] : [f, k, v, row[k]];
      if (uncovered[i][j].has(a * sizes[j] + b)) g++;
    }
    return g;
  };
  while (left > 0) {
    const row: Row = new Array<number>(n).fill(-1);
    outer: for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const first = uncovered[i][j].values().next();
        if (first.done !== true) {
          row[i] = Math.floor(first.value / sizes[j]);
          row[j] = first.value % sizes[j];
          break outer;
        }
      }
    }
    const order = Array.from({ length: n }, (_, i) => i).filter((i) => row[i] < 0);
    for (let k = order.length - 1; k > 0; k--) {
      const m = Math.floor(rand() * (k + 1));
      [order[k], order[m]] = [order[m], order[k]];
    }
    for (const f of order) {
      let best = -1;
      let bestGain = -1;
      let bestTie = -1;
      for (let v = 0; v < sizes[f]; v++) {
        const g = gain(row, f, v);
        const tie = rand() + (quiet[f] === v ? 1 : 0);
        if (g > bestGain || (g === bestGain && tie > bestTie)) [best, bestGain, bestTie] = [v, g, tie];
      }
      row[f] = best;
    }
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (uncovered[i][j].delete(row[i] * sizes[j] + row[j])) left--;
      }
    }
    rows.push(row);
  }
  return rows;
}

describe('covering rows on a flat table', () => {
  it('are the rows of the sets construction for the swarm\'s features, block by block, under every fixed option', () => {
    const fixes: FixedOptions[] = [{}, { broker: 'key' }, { operatorActionsMax: 0 }, { engines: 2 }, { settings: { ticks: 0 } }, { settings: { dedupeWindow: 3, retention: 2 } }, { broker: 'log', operatorActionsMax: 3 }];
    for (const fixed of fixes) {
      const features = swarmFeatures(fixed);
      const sizes = features.map((f) => f.values.length);
      const quiet = features.map((f) => f.values.indexOf('off'));
      const { rows, block } = coveringRows(fixed);
      const expected: Row[] = [];
      for (let k = 0; expected.length < COVERED_SEEDS; k++) expected.push(...coveringArrayBySets(sizes, 21 + k, quiet));
      expect(rows).toEqual(expected.slice(0, COVERED_SEEDS));
      expect(block).toBe(coveringArrayBySets(sizes, 21, quiet).length);
    }
  });

  it('are the rows of the sets construction for sizes, seeds and quiet values drawn at random', () => {
    const rand = tieBreaker(7);
    for (let t = 0; t < 300; t++) {
      const n = 1 + Math.floor(rand() * 12);
      const sizes = Array.from({ length: n }, () => 1 + Math.floor(rand() * 5));
      const quiet = sizes.map((s) => (rand() < 0.5 ? Math.floor(rand() * s) : -1));
      const seed = Math.floor(rand() * 1000);
      expect(coveringArray(sizes, seed, quiet)).toEqual(coveringArrayBySets(sizes, seed, quiet));
      expect(coveringArray(sizes, seed)).toEqual(coveringArrayBySets(sizes, seed));
    }
  });
});

describe('covering rows handed to another thread', () => {
  it('are taken as they are for options not built yet, and built here otherwise', () => {
    const built = coveringRows({ operatorActionsMax: 5 });
    // Options whose rows this thread has not built: the rows adopted are the ones it then uses.
    const fresh: FixedOptions = { operatorActionsMax: 5, settings: { ticks: 0, lateLanding: 0 } };
    const features = swarmFeatures(fresh);
    const adopted = Array.from({ length: COVERED_SEEDS }, (_, s) => features.map((f, i) => (s + i) % f.values.length));
    adoptCoveringRows(fresh, { rows: adopted, block: 7 });
    expect(coveringRows(fresh).rows).toBe(adopted);
    expect(coveringRows(fresh).block).toBe(7);
    // Options built already keep their own rows.
    adoptCoveringRows({ operatorActionsMax: 5 }, { rows: adopted, block: 7 });
    expect(coveringRows({ operatorActionsMax: 5 })).toBe(built);
  });
  it('are not taken when they do not fit the features (a value out of range, a row short, too few rows)', () => {
    const cases: [FixedOptions, (rows: Row[]) => Row[]][] = [
      [{ operatorActionsMax: 6, broker: 'key' }, (rows) => rows.map((r, s) => (s === 9 ? r.map((v, i) => (i === 0 ? 99 : v)) : r))],
      [{ operatorActionsMax: 6, broker: 'log' }, (rows) => rows.map((r, s) => (s === 3 ? r.slice(1) : r))],
      [{ operatorActionsMax: 6, broker: 'none' }, (rows) => rows.slice(1)],
    ];
    for (const [fixed, spoil] of cases) {
      const features = swarmFeatures(fixed);
      const good = Array.from({ length: COVERED_SEEDS }, () => features.map(() => 0));
      adoptCoveringRows(fixed, { rows: spoil(good), block: 1 });
      const sizes = features.map((f) => f.values.length);
      expect(coveringRows(fixed).rows[0]).toEqual(coveringArrayBySets(sizes, 21, features.map((f) => f.values.indexOf('off')))[0]);
    }
  });
});

