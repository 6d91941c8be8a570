/**
 * Thresholds (thresholds.ts): a rule set's record decisions, as asked in
 * real runs, probed with one number of the record varied; deep cycles then
 * take a run whose record counts such a field up past the threshold, in any
 * seed, and try the round after it with one event taken otherwise. A flaw
 * past a threshold at a field and value no shipped rule file uses is found
 * so within check's default seeds, at a seed that is not one deep cycles
 * sample.
 */
import { describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import timeoutFastFail from '../../properties/rule-api/timeout-fast-fail.ts';
import { simulateEvents } from '../core/simulate.ts';
import { BOUNDS_DEFAULT, fixedOptions, planThresholds, runShard, steppersFor, type CheckPlan } from '../check.ts';
import { DEEP_CYCLES, TOWARD_THRESHOLD } from './deep-cycles.ts';
import { THRESHOLD_PROBE } from './thresholds.ts';
import { longLifeOptions } from './long-life.ts';
import { swarmOptions } from './options.ts';
import { outboxSystem } from './outbox-system.ts';
import type { OutboxRecord } from '../../model/types.ts';

/** fail-closed that takes an unknown outcome for a refusal once a record has 11 attempts: it parks permanent-refusal over a body a lost reply stored. */
const lateRefusal: RuleSet = extendRules(failClosed, {
  name: 'late-refusal',
  summary: 'fail-closed that takes an unknown outcome for a refusal once a record has 11 attempts.',
  complete: (record, outcome, limits, view) => failClosed.complete(record, outcome === 'indeterminate' && record.attempts >= 11 ? 'definite' : outcome, limits, view),
});

/**
 * fail-closed whose requeue forgets an unknown outcome once the record has
 * been requeued 95 times (a cron that re-drives dead letters every 15
 * minutes, for a day): a refusal then parks permanent-refusal over a body a
 * lost reply stored. Its threshold is past the values probed one by one.
 */
const lateForgetting: RuleSet = extendRules(failClosed, {
  name: 'late-forgetting',
  summary: 'fail-closed whose requeue clears unknownSeen from resend epoch 96.',
  requeue: (record, reset, view) => {
    const r = failClosed.requeue(record, reset, view);
    return r !== record && view?.action === 'requeue' && r.resendEpoch >= 96 ? { ...r, unknownSeen: false } : r;
  },
});

/** The first seed at which `check --rules` breaks late-forgetting (seeds 1..5000): a sampled seed's deep run toward its far threshold. */
const LATE_FORGETTING_AT = 400;

/** fail-closed that parks two attempts before the limit: a change of answer the attempts limit explains. */
const parksEarly: RuleSet = extendRules(failClosed, {
  name: 'parks-early',
  summary: 'fail-closed that counts two more attempts than it made.',
  complete: (record, outcome, limits, view) => failClosed.complete(record, outcome, { ...limits, attemptsMax: limits.attemptsMax - 2 }, view),
});

const plan = (rules: RuleSet): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT });
const thresholdsOf = (rules: RuleSet) => planThresholds(plan(rules), fixedOptions(plan(rules)));

/** The first seed at which `check --rules` breaks late-refusal (seeds 1..5000; none before the thresholds' mechanism). */
const LATE_REFUSAL_AT = 1047;

describe('thresholds', () => {
  it('are found where a decision answers otherwise past a value of a record field, and fail-closed has none', () => {
    expect(thresholdsOf(lateRefusal).list).toEqual([{ decision: 'complete', field: 'attempts', at: 11 }]);
    expect(thresholdsOf(timeoutFastFail).list).toEqual([{ decision: 'complete', field: 'attempts', at: 8 }]);
    expect(thresholdsOf(failClosed).list).toEqual([]);
  });

  it('are placed past the values probed one by one, by halving the gap between the far points, and a sampled seed goes deep toward one', () => {
    expect(THRESHOLD_PROBE.max).toBeLessThan(95);
    expect(thresholdsOf(lateForgetting).list).toEqual([{ decision: 'requeue', field: 'resendEpoch', at: 95 }]);
    // Only a sampled seed's deep run aims that far (its rounds cost as much as it is far); any seed's aims at one up to max.
    expect(LATE_FORGETTING_AT % DEEP_CYCLES.every).toBe(0);
    const shard = runShard(plan(lateForgetting), LATE_FORGETTING_AT, LATE_FORGETTING_AT + 1);
    const first = shard.first['honest-park'];
    expect(first?.longLife?.toward).toMatchObject({ field: 'resendEpoch', at: 95 });
    expect(shard.longLife?.deep.thresholds).toEqual([{ field: 'resendEpoch', at: 95 }]);
    if (first === undefined) return;
    const system = outboxSystem(first.options, { rules: lateForgetting }, steppersFor(lateForgetting, null));
    expect(simulateEvents(system, first.events, { healStepsMax: BOUNDS_DEFAULT.healStepsMax }).violation?.property).toBe('honest-park');
    // fail-closed at the same seed: clean.
    expect(Object.keys(runShard(plan(failClosed), LATE_FORGETTING_AT, LATE_FORGETTING_AT + 1).first)).toEqual([]);
  });

  it('are found in a flag that turns while a number beside it follows the value, past the attempts limit a run asked with', () => {
    // A bitmap of the attempts whose outcome was unknown, in a signed 8-bit column (round 23 of the blind review): the
    // mask follows the attempts at every value, and the flag read from its sign drops at attempt 7, past a limit of 3.
    const signed8 = (n: number): number => (n << 24) >> 24;
    const bitmap: RuleSet = extendRules(failClosed, {
      name: 'unknown-bitmap-tinyint',
      summary: 'fail-closed, but an unknown outcome is kept as a bit of a signed 8-bit mask, and unknownSeen read as mask > 0',
      complete: (record, outcome, limits, view) => {
        const unknown = outcome === 'indeterminate' || outcome === 'unclassified';
        const mask = unknown ? signed8(1 << (record.attempts % 31)) : 0;
        return failClosed.complete(record, outcome, limits, view).map((r) => (r.status === 'READY' && unknown ? { ...r, unknownMask: mask, unknownSeen: mask > 0 } : r));
      },
    });
    expect(thresholdsOf(bitmap).list.filter((t) => t.field === 'attempts').map((t) => t.at)).toContain(7);
  });

  it('leave out a change of answer the world explains (the attempts limit)', () => {
    expect(thresholdsOf(parksEarly).list).toEqual([]);
  });

  it('are live only for a record the decision answers otherwise for', () => {
    const t = thresholdsOf(timeoutFastFail);
    const record = { schema: 1, status: 'PARKED', payload: 'A', digest: 'x', attempts: 9, resendEpoch: 4, inFlight: false } as OutboxRecord;
    // A record that saw an unknown outcome parks outcome-unknown whether the timeout is taken as transient or not.
    expect(t.live('attempts', 8, { ...record, unknownSeen: true })).toBe(false);
    expect(t.live('attempts', 8, { ...record, unknownSeen: false })).toBe(true);
    expect(t.nextLive('attempts', 3, { ...record, unknownSeen: false })).toBe(8);
    expect(t.nextLive('attempts', 8, { ...record, unknownSeen: false })).toBeUndefined();
  });

  it('lead deep cycles past a threshold no shipped rule file uses, in a seed they do not sample, and the trace replays', () => {
    expect(LATE_REFUSAL_AT % DEEP_CYCLES.every).not.toBe(0);
    const shard = runShard(plan(lateRefusal), LATE_REFUSAL_AT, LATE_REFUSAL_AT + 1);
    const first = shard.first['honest-park'];
    expect(first?.longLife?.deep).toBe(true);
    expect(shard.longLife?.deep.toward).toBe(1);
    if (first === undefined) return;
    // Its liveness bound sized for the threshold (11 attempts, plus 2) past the seed's own limit (attempt-thresholds.test.ts).
    expect(first.options).toEqual({ ...longLifeOptions(swarmOptions(LATE_REFUSAL_AT, {}), TOWARD_THRESHOLD.roundsMax + TOWARD_THRESHOLD.pastRounds + 1), healAttempts: 13 });
    const system = outboxSystem(first.options, { rules: lateRefusal }, steppersFor(lateRefusal, null));
    const again = simulateEvents(system, first.events, { healStepsMax: BOUNDS_DEFAULT.healStepsMax });
    expect(again.violation?.property).toBe('honest-park');
    // The record had 11 attempts or more when it was parked over the body the broker holds.
    const slot = again.steps.at(-1)?.state.records[first.longLife?.id ?? ''];
    expect(slot?.kind === 'record' ? slot.record.attempts : -1).toBeGreaterThanOrEqual(11);
    // fail-closed at the same seed: no threshold, no deep run (the seed is not sampled), clean.
    const clean = runShard(plan(failClosed), LATE_REFUSAL_AT, LATE_REFUSAL_AT + 1);
    expect(Object.keys(clean.first)).toEqual([]);
    expect(clean.longLife?.deep.runs).toBe(0);
  });
});
