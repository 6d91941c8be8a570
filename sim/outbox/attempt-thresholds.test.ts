/**
 * A threshold of the record's attempts (thresholds.ts): a rule that acts at
 * an attempt no drawn limit lets a pending record reach is met by a small
 * world whose limit passes it (small-worlds.ts, `suiteAttempts`), by seeds
 * whose limit is raised past it (`withAttemptMarks`), and by deep cycles
 * that take the round that brought the count there otherwise
 * (deep-cycles.ts). unknown-bitmap-tinyint keeps a signed bitmap of unknown
 * outcomes whose sign bit is attempt 7 (and over a SMALLINT, attempt 15):
 * only a record still pending there, with no unknown outcome before, loses
 * its evidence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import failClosed, { markInFlight } from '../../model/catalog/fail-closed.ts';
import { extendRules } from '../../model/rules.ts';
import unknownBitmapTinyint, { bitmapRules } from '../../properties/rule-api/unknown-bitmap-tinyint.ts';
import { simulateEvents } from '../core/simulate.ts';
import { BOUNDS_DEFAULT, fixedOptions, planThresholds, runShard, seedOptions, steppersFor, type CheckPlan } from '../check.ts';
import { ATTEMPTS_WORLD_STATES_MAX, exploreSmallWorld, probedWorlds, suiteAttempts } from '../small-worlds.ts';
import { marksOnly, withAttemptMarks } from './thresholds.ts';
import { outboxSystem } from './outbox-system.ts';
import type { RulesPair } from './record-trace.ts';
import { healStepsOf, swarmOptions } from './options.ts';

const plan = (rules = unknownBitmapTinyint, attemptsMax?: number): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT, ...(attemptsMax !== undefined ? { attemptsMax } : {}) });

/** A seed whose run, with 25 retries whatever the limit, was still busy 400 steps after faults stopped (the liveness bound sized for the world's limit of 5). */
const BUSY_SEED = 339;

/** A seed whose deep cycle toward attempt 15 finds the SMALLINT bitmap's flaw with every seed's limit at 17 (`check --attempts 17`), in the round that brought the record there. */
const SIGN_BIT_SEED = 1562;

describe('a threshold of attempts', () => {
  it('the probe sees the sign bit at attempt 7; fail-closed has none', () => {
    expect(planThresholds(plan(), fixedOptions(plan())).attemptMarks[0]).toBe(7);
    expect(planThresholds(plan(failClosed), fixedOptions(plan(failClosed))).attemptMarks).toEqual([]);
  });

  it('gives the suite a world of one engine and one body with a limit two past it, bounded on its own, which holds the flaw', () => {
    expect(suiteAttempts(unknownBitmapTinyint)).toBe(9);
    expect(suiteAttempts(failClosed)).toBeNull();
    const worlds = probedWorlds({ rules: unknownBitmapTinyint, oldRules: null });
    const world = worlds.find((w) => w.sizes.attemptsMax === 9);
    expect(world?.name).toBe('1 engine, 1 body, attempts 9, crashes 1');
    expect(world?.statesMax).toBe(ATTEMPTS_WORLD_STATES_MAX);
    expect(probedWorlds({ rules: failClosed, oldRules: null }).some((w) => w.statesMax !== undefined)).toBe(false);
    if (world === undefined) return;
    const pair: RulesPair = { rules: unknownBitmapTinyint, rulesOrigin: { source: 'catalog', name: unknownBitmapTinyint.name, hash: null }, oldRules: null, oldRulesOrigin: null };
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-attempts-'));
    try {
      const r = exploreSmallWorld(pair, steppersFor(unknownBitmapTinyint, null), world, 1, { outDir: dir, replayCommand: (p) => p, now: () => 0 });
      expect(r.violations.map((v) => v.property)).toEqual(['honest-park']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('raises the limit of one seed in two past the smallest threshold it does not pass, from a stream of its own; a fixed limit stays (its liveness bound follows the largest)', () => {
    const raised: number[] = [];
    for (let seed = 1; seed <= 400; seed++) {
      const drawn = swarmOptions(seed);
      const marked = withAttemptMarks(drawn, seed, [7, 31], false);
      // Only the limit moves, and the liveness bound is sized for the largest threshold (33 attempts) where the limit is below it.
      expect({ ...marked, attemptsMax: drawn.attemptsMax }).toEqual(marked.attemptsMax >= 33 ? drawn : { ...drawn, healAttempts: 33 });
      if (marked.attemptsMax !== drawn.attemptsMax) raised.push(marked.attemptsMax);
      expect(withAttemptMarks(drawn, seed, [7, 31], true)).toEqual(drawn.attemptsMax >= 33 ? drawn : { ...drawn, healAttempts: 33 });
      expect(withAttemptMarks(drawn, seed, [], false)).toBe(drawn);
      // A limit that already passes 7 is raised past 31 or not at all.
      if (drawn.attemptsMax >= 9) expect([drawn.attemptsMax, 33]).toContain(marked.attemptsMax);
    }
    expect(raised.length).toBeGreaterThan(150);
    expect(raised.length).toBeLessThan(250);
    expect(new Set(raised)).toEqual(new Set([9, 33]));
  });

  it('the seeds run with it in the check, and a check that reruns them without a probe (marksOnly) draws the same options', () => {
    const fixed = fixedOptions(plan());
    const probed = planThresholds(plan(), fixed);
    const again = marksOnly(probed.clock, probed.bodies, probed.ids, probed.attemptMarks);
    for (let seed = 1; seed <= 64; seed++) expect(seedOptions(plan(), fixed, again, seed)).toEqual(seedOptions(plan(), fixed, probed, seed));
    expect([...Array(64).keys()].some((i) => seedOptions(plan(), fixed, probed, i + 1).attemptsMax === 9)).toBe(true);
  });

  it("size the liveness bound for the rule set's own cap past the world's limit: 25 retries whatever the limit is not busy at 400 steps (a blind review's false alarm)", () => {
    const cap25 = extendRules(failClosed, {
      name: 'retries-capped-at-25',
      summary: 'fail-closed with a fixed cap of 25 attempts, whatever the world limit.',
      preSend: (record, view) => markInFlight(record, view, 25),
      complete: (record, outcome, _limits, view) => failClosed.complete(record, outcome, { attemptsMax: 25 }, view),
    });
    const fixed = fixedOptions(plan(cap25));
    const marks = planThresholds(plan(cap25), fixed);
    expect(marks.attemptMarks).toEqual([24]);
    const options = seedOptions(plan(cap25), fixed, marks, BUSY_SEED);
    expect([options.attemptsMax < 24, options.healAttempts]).toEqual([true, 26]);
    expect(healStepsOf(BOUNDS_DEFAULT.healStepsMax, options)).toBe(1_040);
    expect(Object.keys(runShard(plan(cap25), BUSY_SEED, BUSY_SEED + 1).first)).toEqual([]);
    // The bound follows the cap with --attempts too; without a threshold nothing changes.
    expect(seedOptions(plan(cap25, 3), fixedOptions(plan(cap25, 3)), marks, BUSY_SEED).healAttempts).toBe(26);
    expect(seedOptions(plan(failClosed), fixedOptions(plan(failClosed)), planThresholds(plan(failClosed), fixedOptions(plan(failClosed))), BUSY_SEED).healAttempts).toBeUndefined();
  });

  it('deep cycles take the round that brought the record to it otherwise: past it the limit parks the record, and the flaw is not met', () => {
    const rules = bitmapRules(16);
    const shard = runShard(plan(rules, 17), SIGN_BIT_SEED, SIGN_BIT_SEED + 1);
    const first = shard.first['honest-park'];
    expect(first?.longLife?.toward).toEqual({ field: 'attempts', at: 15, deviated: true, crossing: true });
    if (first === undefined) return;
    const system = outboxSystem(first.options, { rules }, steppersFor(rules, null));
    expect(simulateEvents(system, first.events, { healStepsMax: BOUNDS_DEFAULT.healStepsMax }).violation?.property).toBe('honest-park');
    // fail-closed, on the same seed and limit, settles clean.
    expect(Object.keys(runShard(plan(failClosed, 17), SIGN_BIT_SEED, SIGN_BIT_SEED + 1).first)).toEqual([]);
  });
});
