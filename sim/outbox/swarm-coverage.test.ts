/**
 * The swarm covers combinations (issue 21): every pair of feature values
 * occurs within the first seeds, the operator's budget reaches many actions
 * in some seeds, and `--operator N` fixes it.
 */
import { describe, expect, it } from 'vitest';
import { swarmOptions, type FixedOptions } from './options.ts';
import { HEALTHY_ANSWER } from './events/broker.ts';
import { EVENT_KINDS } from './events/table.ts';
import { COVERED_SEEDS, coveringArray, coveringRows, operatorClass, pairCoverage, swarmFeatures } from './swarm-coverage.ts';

/** Every pair of values of two columns occurs in some row. */
function coversAllPairs(sizes: readonly number[], rows: readonly number[][]): boolean {
  for (let i = 0; i < sizes.length; i++) {
    for (let j = i + 1; j < sizes.length; j++) {
      for (let a = 0; a < sizes[i]; a++) for (let b = 0; b < sizes[j]; b++) if (!rows.some((r) => r[i] === a && r[j] === b)) return false;
    }
  }
  return true;
}

describe('covering arrays', () => {
  it.each([[[2, 2, 2]], [[3, 3, 3, 3]], [[4, 3, 2, 2, 2, 2, 2, 2, 2, 2]], [[5, 1, 4, 2]]])('cover every pair of %j, in few rows', (sizes) => {
    const rows = coveringArray(sizes);
    expect(coversAllPairs(sizes, rows)).toBe(true);
    const [a, b] = [...sizes].sort((x, y) => y - x);
    // At least the product of the two largest; greedy stays within a few times that.
    expect(rows.length).toBeGreaterThanOrEqual(a * b);
    expect(rows.length).toBeLessThanOrEqual(3 * a * b);
  });
  it('are deterministic, and each block differs in its tie-breaks', () => {
    expect(coveringArray([3, 2, 2, 4])).toEqual(coveringArray([3, 2, 2, 4]));
    expect(coveringArray([3, 2, 2, 4, 2, 2], 21)).not.toEqual(coveringArray([3, 2, 2, 4, 2, 2], 22));
  });
  it('give a tie to a feature\'s quiet value, so rows switch fewer kinds on and still cover every pair', () => {
    const sizes = new Array<number>(14).fill(2);
    const onPerRow = (rows: number[][]) => rows.flat().filter((v) => v === 0).length / rows.length;
    const quiet = coveringArray(sizes, 21, sizes.map(() => 1));
    expect(coversAllPairs(sizes, quiet)).toBe(true);
    expect(onPerRow(quiet)).toBeLessThan(onPerRow(coveringArray(sizes, 21)));
  });
});

describe('the swarm\'s first seeds', () => {
  const swarm = (fixed: FixedOptions) => (seed: number) => swarmOptions(seed, fixed);

  it('hold every pair of feature values by the end of the first covering block (seed 16); random draws alone need about 140 seeds more', () => {
    const { rows, block, features } = coveringRows({});
    // The kinds in trace format 1's order (answers, then faults), which keeps the covering rows of seeds 1-256.
    const answers = ['refuse-400', 'refuse-409', 'unavailable-503', 'timeout-unsent', 'lost-reply', 'garbled-200', 'crash-in-post', 'garbled-unsent'];
    // Then the kinds added since, in table order: those drawn on or off, and the forgetting broker and the sweep, which follow a setting.
    const faults = ['crash', 'tear-record', 'tear-claim', 'newer-schema', 'legacy-record', 'timeout-in-transit', 'forget', 'sweep', 'field-corrupt', 'stall', 'alter-payload', 'poison'];
    // No feature for the corruption budget: a kind that spends it gets it when its row switches it on.
    expect(features.map((f) => f.name)).toEqual(['engines', 'broker', 'operator', ...answers, ...faults]);
    expect(rows).toHaveLength(COVERED_SEEDS);
    const c = pairCoverage(1, block + 1, {}, swarm({}));
    expect(c.pairs).toBe(1193);
    expect(c.covered).toBe(c.pairs);
    expect(c.allBySeed).toBeLessThanOrEqual(block);
    // Seeds past the covering rows are the swarm's random draws: they reach every pair much later.
    const random = pairCoverage(COVERED_SEEDS + 1, COVERED_SEEDS + 1 + block, {}, swarm({}));
    expect(random.covered).toBeLessThan(random.pairs);
    expect(random.missing.length).toBeGreaterThan(0);
  });

  it('switch on what a kind needs: a stall gets a clock and a lease, a POST in transit late landing, a damage a corruption budget, a crash a crash budget', () => {
    const { rows, features } = coveringRows({});
    const at = (name: string) => features.findIndex((f) => f.name === name);
    const on = (seed: number, name: string) => features[at(name)].values[rows[seed - 1][at(name)]] === 'on';
    let both = 0;
    for (let seed = 1; seed <= COVERED_SEEDS; seed++) {
      const o = swarmOptions(seed);
      if (on(seed, 'stall')) expect([o.settings?.ticks ?? 0, o.settings?.lease ?? 0].every((v) => v > 0)).toBe(true);
      if (on(seed, 'timeout-in-transit')) expect(o.settings?.lateLanding ?? 0).toBeGreaterThan(0);
      expect((o.settings?.dedupeWindow ?? 0) > 0).toBe(on(seed, 'forget'));
      expect((o.settings?.retention ?? 0) > 0).toBe(on(seed, 'sweep'));
      for (const d of ['tear-record', 'tear-claim', 'newer-schema', 'legacy-record', 'field-corrupt']) if (on(seed, d)) expect(o.corruptionsMax).toBeGreaterThan(0);
      for (const c of ['crash', 'crash-in-post']) if (on(seed, c)) expect(o.crashesMax).toBeGreaterThan(0);
      if (on(seed, 'stall') && on(seed, 'timeout-in-transit')) both++;
    }
    expect(both).toBeGreaterThan(0);
  });

  it('switch fewer kinds on than the random draws (about 6 of 18 against 10): a fault needing a rare partner is not drowned by every other', () => {
    const kinds = swarmFeatures({}).filter((f) => f.values.includes('on'));
    const mean = (from: number, to: number) => {
      let on = 0;
      for (let seed = from; seed < to; seed++) on += kinds.filter((f) => f.read(swarmOptions(seed)) === 'on').length;
      return on / (to - from);
    };
    expect(mean(1, COVERED_SEEDS + 1)).toBeLessThan(mean(COVERED_SEEDS + 1, COVERED_SEEDS + 1001) - 2);
  });

  it('count a pair exercised only where the run took a step of each kind it switches on', () => {
    const features = swarmFeatures({});
    const everything = new Set(EVENT_KINDS.map((k) => k.name));
    const drawn = pairCoverage(1, 17, {}, swarm({}));
    expect(pairCoverage(1, 17, {}, swarm({}), () => everything)).toEqual(drawn);
    // A run that took no step: only pairs of values that switch nothing on (a kind off, no operator budget, sizes, broker).
    const none = pairCoverage(1, 17, {}, swarm({}), () => new Set());
    expect(none.covered).toBeLessThan(drawn.covered);
    const quietValue = (name: string, value: string) => {
      const f = features.find((x) => x.name === name);
      return f?.shows === undefined || f.shows.quiet === value;
    };
    expect(none.missing.length).toBeGreaterThan(0);
    for (const m of none.missing) expect(m.split(' & ').some((fv) => !quietValue(fv.split('=')[0], fv.split('=')[1]))).toBe(true);
    // The kinds a row switches on with a step taken: a crash taken counts crash=on, and nothing else switched on.
    const crashOnly = pairCoverage(1, 17, {}, swarm({}), () => new Set(['crash']));
    expect(crashOnly.covered).toBeGreaterThan(none.covered);
    expect(crashOnly.covered).toBeLessThan(drawn.covered);
  });

  it('leave out a kind the user\'s settings hold on or off, and keep the user\'s settings', () => {
    const names = (fixed: FixedOptions) => swarmFeatures(fixed).map((f) => f.name);
    expect(names({ settings: { dedupeWindow: 0 } })).not.toContain('forget');
    expect(names({ settings: { dedupeWindow: 3 } })).not.toContain('forget');
    expect(names({ settings: { retention: 2 } })).not.toContain('sweep');
    expect(names({ settings: { ticks: 0 } })).not.toContain('stall');
    expect(names({ settings: { ticks: 64, lease: 2 } })).toContain('stall');
    for (let seed = 1; seed <= 32; seed++) {
      expect(swarmOptions(seed, { settings: { ticks: 0, lateLanding: 0 } }).settings).toMatchObject({ ticks: 0, lateLanding: 0 });
      expect(swarmOptions(seed, { settings: { dedupeWindow: 4 } }).settings?.dedupeWindow).toBe(4);
    }
  });

  it('take each covering row\'s values exactly, read back from the options', () => {
    for (const fixed of [{}, { broker: 'id-409' as const }, { operatorActionsMax: 5, skew: true }]) {
      const { rows, features } = coveringRows(fixed);
      for (let seed = 1; seed <= 64; seed++) {
        const o = swarmOptions(seed, fixed);
        expect(features.map((f) => f.read(o))).toEqual(rows[seed - 1].map((v, i) => features[i].values[v]));
        // Weights stay in the swarm's ranges.
        for (const [name, w] of Object.entries(o.weights)) if (name !== HEALTHY_ANSWER) expect(w).toBeLessThanOrEqual(4);
      }
    }
  });

  it('leave out the features a flag fixes, and cover all pairs of the rest', () => {
    const names = swarmFeatures({ broker: 'key', operatorActionsMax: 2 }).map((f) => f.name);
    expect(names).not.toContain('broker');
    expect(names).not.toContain('operator');
    const fixed = { broker: 'key' as const, operatorActionsMax: 2 };
    const c = pairCoverage(1, 40, fixed, swarm(fixed));
    expect(c.covered).toBe(c.pairs);
  });
});

describe('the operator\'s budget', () => {
  it('reaches 8-12 actions in some seeds (about one in eight past the covering rows), 0-3 in the rest', () => {
    const budgets = Array.from({ length: 2000 }, (_, i) => swarmOptions(COVERED_SEEDS + 1 + i).operatorActionsMax);
    const many = budgets.filter((b) => b >= 8).length;
    expect(Math.max(...budgets)).toBeGreaterThanOrEqual(10);
    expect(many / budgets.length).toBeGreaterThan(0.08);
    expect(many / budgets.length).toBeLessThan(0.17);
    expect(budgets.every((b) => b <= 3 || (b >= 8 && b <= 12))).toBe(true);
    expect(new Set(budgets.map(operatorClass))).toEqual(new Set(['0', '1-3', '8+']));
  });
  it('is fixed by --operator N for every seed, and fixing it moves no other draw', () => {
    for (const seed of [1, 7, 300, 4242]) {
      expect(swarmOptions(seed, { operatorActionsMax: 10 }).operatorActionsMax).toBe(10);
      if (seed > COVERED_SEEDS) expect({ ...swarmOptions(seed, { operatorActionsMax: 10 }), operatorActionsMax: 0 }).toEqual({ ...swarmOptions(seed), operatorActionsMax: 0 });
    }
  });
});
