/**
 * Deep cycles (deep-cycles.ts): a sampled run's cycle taken a fixed number
 * of rounds, then faults stop. requeue-cap-strands (an id requeued more than
 * 15 times is never selected again) is found, past every budget a bounded
 * world has; requeue-cap-parks (the same cap, parked) and fail-closed settle
 * clean; the events a deep cycle returns are a real trace of its world.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import requeueCapStrands from '../../properties/rule-api/requeue-cap-strands.ts';
import requeueCapParks from '../../properties/rule-api/requeue-cap-parks.ts';
import { runSeed } from '../core/random.ts';
import { simulateEvents } from '../core/simulate.ts';
import { BOUNDS_DEFAULT, runShard, seedBounds, steppersFor, type CheckPlan } from '../check.ts';
import { DEEP_CYCLES, liveDeep } from './deep-cycles.ts';
import { longLifeOptions, recordCycles } from './long-life.ts';
import { swarmOptions } from './options.ts';
import { outboxSystem } from './outbox-system.ts';

const plan = (rules: RuleSet): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT });

/** The seed where the swarm's deep cycles first break requeue-cap-strands (`check --rules properties/rule-api/requeue-cap-strands.ts`). */
const STRANDED_AT = 1696;

describe('deep cycles', () => {
  it('find a record stranded after more requeues than any world allows, and its trace replays in its own world', () => {
    const shard = runShard(plan(requeueCapStrands), STRANDED_AT, STRANDED_AT + 1);
    // requeue-cap-parks at the same seed: the record parked at the cap no longer comes back READY.
    expect(runShard(plan(requeueCapParks), STRANDED_AT, STRANDED_AT + 1).longLife?.deep.ends).toEqual({ 'did-not-repeat': 1 });
    const first = shard.first['settled-after-healing'];
    expect(first?.longLife).toMatchObject({ deep: true, rounds: DEEP_CYCLES.rounds });
    expect(shard.longLife?.deep.ends.violation).toBe(1);
    if (first === undefined) return;
    // The trace's world is the drawn one with its budgets raised for the rounds; the end of faults is in its events.
    expect(first.options).toEqual(longLifeOptions(swarmOptions(STRANDED_AT, {}), DEEP_CYCLES.rounds + 1));
    expect(first.events).toContain(null);
    const system = outboxSystem(first.options, { rules: requeueCapStrands }, steppersFor(requeueCapStrands, null));
    expect(simulateEvents(system, first.events, { healStepsMax: BOUNDS_DEFAULT.healStepsMax }).violation?.property).toBe('settled-after-healing');
  });

  it('leave a rule set whose cap parks the item, and fail-closed, settled clean', () => {
    for (const rules of [requeueCapParks, failClosed]) {
      const shard = runShard(plan(rules), 1, 1601);
      expect(Object.keys(shard.first), rules.name).toEqual([]);
      expect(shard.longLife?.deep.ends.settled, rules.name).toBeGreaterThan(10);
    }
  });

  it('sample one seed in DEEP_CYCLES.every, and only runs in which a record came back', () => {
    const shard = runShard(plan(failClosed), 1, 2 * DEEP_CYCLES.every + 1);
    expect(shard.longLife?.deep.runs).toBeLessThanOrEqual(2);
  });

  it('take the cycle its rounds, then stop faults and run to quiet', () => {
    const seed = STRANDED_AT;
    const options = swarmOptions(seed, {});
    const steppers = steppersFor(failClosed, null);
    const run = runSeed(outboxSystem(options, { rules: failClosed }, steppers), seed, seedBounds(BOUNDS_DEFAULT, options), true);
    const events = run.steps.map((s) => s.event);
    const [cycle] = recordCycles(run.states ?? [], events, false);
    expect(cycle).toBeDefined();
    const system = outboxSystem(longLifeOptions(options, DEEP_CYCLES.rounds + 1), { rules: failClosed }, steppers);
    const life = liveDeep(system, events, run.states ?? [], cycle, seed, BOUNDS_DEFAULT.healStepsMax);
    expect(life).toMatchObject({ end: 'settled', rounds: DEEP_CYCLES.rounds, violation: null });
    // The rounds, then one end of faults, then the liveness phase's own steps.
    expect(life.events.filter((e) => e === null)).toHaveLength(1);
    expect(life.events.indexOf(null)).toBeGreaterThan(cycle.to + DEEP_CYCLES.rounds - 1);
    const again = simulateEvents(system, life.events, { healStepsMax: BOUNDS_DEFAULT.healStepsMax });
    expect(again.invalidAt).toBeNull();
    expect(again.violation).toBeNull();
  });
});
