/**
 * The swarm's attempts limit (options.ts, `attemptsLimit`): 1-5, or a
 * production-sized 6-32 in one seed in eight from a stream of its own, so
 * that a record keeping something per failed attempt up to the limit meets
 * limits production runs; and the liveness bound that grows with it
 * (`healStepsOf`), so that a sound rule set retrying up to such a limit is
 * not called busy.
 */
import { describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { lightStream } from '../core/chooser.ts';
import { BOUNDS_DEFAULT, runShard, seedBounds, type CheckPlan } from '../check.ts';
import { healStepsOf, PRODUCTION_ATTEMPTS, swarmOptions } from './options.ts';
import { COVERED_SEEDS, coveringRows, swarmFeatures } from './swarm-coverage.ts';

const seeds = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

describe('the attempts limit the swarm draws', () => {
  it('is production-sized (6-32) in about one seed in eight, 1-5 in the rest', () => {
    const limits = seeds(COVERED_SEEDS + 1, 2000).map((s) => swarmOptions(s).attemptsMax);
    const many = limits.filter((a) => a > 5);
    expect(many.length / limits.length).toBeGreaterThan(0.09);
    expect(many.length / limits.length).toBeLessThan(0.16);
    expect(limits.every((a) => (a >= 1 && a <= 5) || (a >= PRODUCTION_ATTEMPTS.min && a <= PRODUCTION_ATTEMPTS.max))).toBe(true);
    // The range is drawn through: production's 10-25 and past it.
    expect(Math.min(...many)).toBeLessThanOrEqual(8);
    expect(Math.max(...many)).toBeGreaterThanOrEqual(30);
    expect(new Set(limits.filter((a) => a <= 5))).toEqual(new Set([1, 2, 3, 4, 5]));
  });
  it('in the covered seeds too: the covering rows do not name it, as they do not name ids or bodies', () => {
    expect(swarmFeatures().map((f) => f.name)).not.toContain('attempts');
    const covered = seeds(1, COVERED_SEEDS).filter((s) => swarmOptions(s).attemptsMax > 5);
    expect(covered.length).toBeGreaterThan(COVERED_SEEDS / 16);
    expect(covered.length).toBeLessThan(COVERED_SEEDS / 4);
  });
  it('comes from a stream of its own (attempts:many): every other field of every seed is what it was, and the rows too', () => {
    for (const seed of [...seeds(1, 300), ...seeds(4000, 200)]) {
      const o = swarmOptions(seed);
      // Production-sized exactly where the seed's own stream says so; elsewhere the swarm stream's 1-5, as before.
      expect([seed, o.attemptsMax > 5]).toEqual([seed, lightStream(seed, 'attempts:many').next() < 1 / PRODUCTION_ATTEMPTS.every]);
      // Fixed, it moves no other field (the covered seeds' features included).
      expect({ ...swarmOptions(seed, { attemptsMax: 3 }), attemptsMax: 0 }).toEqual({ ...o, attemptsMax: 0 });
      expect(swarmOptions(seed, { attemptsMax: 77 }).attemptsMax).toBe(77);
    }
    expect(coveringRows({ attemptsMax: 25 }).rows).toEqual(coveringRows({}).rows);
  });
});

describe('the liveness bound of a world', () => {
  it('is 400 steps up to an attempts limit of 10 (explore, the small worlds), 40 per attempt past it', () => {
    expect([1, 5, 10].map((a) => healStepsOf(400, { attemptsMax: a }))).toEqual([400, 400, 400]);
    expect([11, 25, 32, 100].map((a) => healStepsOf(400, { attemptsMax: a }))).toEqual([440, 1000, 1280, 4000]);
    expect(seedBounds(BOUNDS_DEFAULT, swarmOptions(1406)).healStepsMax).toBe(1280);
  });
  it('leaves fail-closed clean where a production-sized limit outlasted 400 steps', () => {
    // Seed 1406: limit 32, two records retried under a lasting 503 (and a poison body); quiet after 562 steps.
    expect(swarmOptions(1406).attemptsMax).toBe(32);
    const run = (bounds: CheckPlan['bounds']) => runShard({ rules: failClosed, oldRules: null, seedStart: 1406, seeds: 1, broker: null, bounds, thresholds: false }, 1406, 1407);
    expect(run(BOUNDS_DEFAULT).violatedRuns).toEqual({});
    // The same seed bounded at 400 whatever its limit (a limit of 10 keeps 400: the bound it had) is reported busy.
    const at400 = runShard({ rules: failClosed, oldRules: null, seedStart: 1406, seeds: 1, broker: null, bounds: { ...BOUNDS_DEFAULT, healStepsMax: 400 * 10 / 32 }, thresholds: false }, 1406, 1407);
    expect(Object.keys(at400.violatedRuns)).toEqual(['quiet-after-healing']);
  });
});

/** fail-closed keeping a note of each failed attempt on the record, trimmed to the attempts limit (17 bytes each). */
const notesPerAttempt: RuleSet = extendRules(failClosed, {
  name: 'notes-per-attempt',
  summary: 'fail-closed, keeping a note of each of the last attemptsMax failed attempts.',
  complete: (record, outcome, limits, view) => {
    const written = failClosed.complete(record, outcome, limits, view);
    if (outcome === 'confirmed') return written;
    const prev = Array.isArray(record.notes) ? (record.notes as string[]) : [];
    const notes = [...prev, 'attempt-failed'].slice(-limits.attemptsMax);
    return written.map((r) => ({ ...r, notes }));
  },
});

describe('a record that grows with the attempts limit', () => {
  const plan = (attemptsMax?: number): CheckPlan => ({ rules: notesPerAttempt, oldRules: null, seedStart: 1, seeds: 64, broker: null, bounds: BOUNDS_DEFAULT, ...(attemptsMax !== undefined ? { attemptsMax } : {}) });
  it('is past its bound in the default swarm\'s first 64 seeds, and in none of them with the limit capped at 5', () => {
    const drawn = runShard(plan(), 1, 65);
    expect(Object.keys(drawn.violatedRuns)).toEqual(['bounded-record']);
    expect(drawn.first['bounded-record'].options.attemptsMax).toBeGreaterThan(5);
    expect(runShard(plan(5), 1, 65).violatedRuns).toEqual({});
  });
});
