/**
 * The liveness phase's bound waits a back-off out (outbox-system.ts,
 * `waitOut`; core/liveness.ts, `boundVerdict`): a sound rule set whose retry
 * waits seven days was reported retrying for ever, its 400 steps spent on
 * passes that changed nothing while the clock doubled to 5.9 days. A rule
 * that retries for ever is still busy, with a back-off too.
 */
import { describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import retryPastCap from '../../properties/mutants/retry-past-cap.ts';
import { BOUNDS_DEFAULT, runShard, steppersFor, type CheckPlan } from '../check.ts';
import { writeCounterexample, type RulesPair } from './record-trace.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DAY = 86_400_000;

/** fail-closed that waits `days` before a record is selected again after a failed attempt (a sound change). */
const backoff = (days: number, base: RuleSet = failClosed): RuleSet =>
  extendRules(base, {
    name: `backoff-${days}d`,
    summary: `${base.name} with a back-off of ${days} days after a failed attempt.`,
    complete: (record, outcome, limits, view) => base.complete(record, outcome, limits, view).map((r) => (r.status === 'READY' ? { ...r, retryAt: (view?.now ?? 0) + days * DAY } : r)),
    selectable: (record, view) => (base.selectable?.(record, view) ?? true) && (typeof record.retryAt !== 'number' || view.now >= record.retryAt),
  });

const plan = (rules: RuleSet, seed: number): CheckPlan => ({ rules, oldRules: null, seedStart: seed, seeds: 1, broker: null, bounds: BOUNDS_DEFAULT, thresholds: false });
const violated = (rules: RuleSet, seed: number): string[] => Object.keys(runShard(plan(rules, seed), seed, seed + 1).violatedRuns);

describe('the liveness bound', () => {
  it('waits out a back-off of days that the phase\'s steps did not: a sound rule set is not retrying for ever', () => {
    // Seeds at which a review saw the seven-day back-off reported quiet-after-healing (its passes under way, or idle
    // ones changing nothing, at the bound).
    for (const seed of [3967, 7452]) expect([seed, violated(backoff(7), seed)]).toEqual([seed, []]);
  });
  it('still calls a rule that retries for ever busy, with a back-off of days too', () => {
    // retry-past-cap leaves a record READY at its attempts limit: retried for ever (first at seed 120 of the swarm).
    expect(violated(retryPastCap, 120)).toEqual(['quiet-after-healing']);
    const forever = backoff(7, retryPastCap);
    const found = [120, 200, 300, 400, 500, 600, 700, 800, 900, 1000].flatMap((s) => Array.from({ length: 100 }, (_, i) => s + i)).filter((s) => violated(forever, s).includes('quiet-after-healing'));
    expect(found.length).toBeGreaterThan(0);
  });

  it('writes the trace of a run busy at the bound whose waited-out state breaks an eventually property, and it replays to the same violation', () => {
    // A back-off of 2^attempts minutes without a ceiling (a review's rule file, round 22): with an attempts limit of 29
    // the next retry is centuries away. At the bound the state waited out is quiet but never settled: busy. Its trace
    // was re-run checking quiet-after-healing alone, which judged the waited-out state by no eventually property,
    // read it clean, and the check ended as if the rule file kept state (exit 2).
    const unbounded = extendRules(failClosed, {
      name: 'backoff-without-ceiling',
      summary: 'fail-closed with a back-off of 2^attempts minutes, no ceiling.',
      complete: (record, outcome, limits, view) => failClosed.complete(record, outcome, limits, view).map((r) => (r.status === 'READY' ? { ...r, retryAt: (view?.now ?? 0) + 60_000 * 2 ** r.attempts } : r)),
      selectable: (record, view) => (failClosed.selectable?.(record, view) ?? true) && (typeof record.retryAt !== 'number' || view.now >= record.retryAt),
    });
    const seed = 4311;
    const r = runShard({ rules: unbounded, oldRules: failClosed, skewDrawn: true, seedStart: seed, seeds: 1, broker: null, bounds: BOUNDS_DEFAULT, thresholds: false }, seed, seed + 1);
    const c = r.first['quiet-after-healing'];
    expect(c?.seed).toBe(seed);
    if (c === undefined) return;
    const dir = mkdtempSync(join(tmpdir(), 'wait-out-'));
    try {
      const pair: RulesPair = { rules: unbounded, rulesOrigin: { source: 'catalog', name: unbounded.name, hash: null }, oldRules: failClosed, oldRulesOrigin: { source: 'catalog', name: 'fail-closed', hash: null } };
      const w = writeCounterexample(dir, pair, steppersFor(unbounded, failClosed), seed, c.options, c.events, 'quiet-after-healing', 'check', BOUNDS_DEFAULT.healStepsMax);
      expect(w.violation.property).toBe('quiet-after-healing');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
