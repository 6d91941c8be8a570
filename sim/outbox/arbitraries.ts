/**
 * fast-check arbitraries of the outbox world, exported to users as
 * `outbox-sim/fast-check` for `@fast-check/vitest`'s `test.prop`:
 *
 *   test.prop([scenarioArb()])('my rules keep every safety property', (s) => {
 *     expect(runScenario(myRules, s).violation).toBeNull();
 *   });
 *
 * A scenario is the options of one world and a schedule, the list of choice
 * indices that picks each step's event (sim/core/schedule.ts): fast-check
 * generates the schedule itself, so on a failure it shrinks the schedule
 * (fewer steps, earlier events) and prints the `seed` and `path` that
 * reproduce the shrunk counterexample (`fc.assert(..., { seed, path })`).
 */
import fc from 'fast-check';
import { BROKER_MODES } from '../../model/broker.ts';
import type { RuleSet } from '../../model/rules.ts';
import { steppersFor } from '../check.ts';
import { runSchedule, type ScheduleRun } from '../core/schedule.ts';
import { STEADY_ANSWERS, swarmKnobs, type WorldOptions } from './options.ts';
import { outboxSystem } from './outbox-system.ts';
import { TICKS_DRAWN } from './events/clock.ts';
import type { World, WorldEvent } from './world.ts';

/** A world and the choices that run it. */
export interface Scenario {
  options: WorldOptions;
  /** One choice index per step (see sim/core/schedule.ts). */
  schedule: number[];
}

// Like the swarm, a weight is often 0 so that some scenarios switch a fault off entirely.
const weight = fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 3 });
// Every weight the swarm draws, by kind name; the healthy answer's is never 0 (as the swarm's `base` draw).
const KNOBS = swarmKnobs();

/** World options as the check swarm draws them: sizes, broker mode, fault budgets and weights, the dedupe window, late landing, retention and poison messages. */
export const worldOptionsArb: fc.Arbitrary<WorldOptions> = fc
  .record({
    engines: fc.integer({ min: 1, max: 3 }),
    ids: fc.integer({ min: 1, max: 2 }),
    bodiesPerId: fc.integer({ min: 1, max: 3 }),
    attemptsMax: fc.integer({ min: 1, max: 5 }),
    broker: fc.constantFrom(...BROKER_MODES),
    crashesMax: fc.integer({ min: 0, max: 4 }),
    corruptionsMax: fc.integer({ min: 0, max: 3 }),
    operatorActionsMax: fc.integer({ min: 0, max: 4 }),
    drawn: fc.tuple(...KNOBS.map((k) => (k.draw === 'base' ? fc.integer({ min: 1, max: 12 }) : weight))),
    faultGroupWeight: fc.integer({ min: 1, max: 5 }),
    // The broker's steady answer once faults stop: healthy, or a failure that persists.
    healAnswer: fc.constantFrom(...STEADY_ANSWERS),
    faultStepsMax: fc.integer({ min: 20, max: 120 }),
    // The broker's dedupe window: permanent in most scenarios, else forgetting after 1-6 broker steps.
    dedupeWindow: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 6 }), weight: 1 }),
    // Late landing and record retention (1-6 sweeps): off in most scenarios. At most 1-2 POSTs
    // in transit, so that the bound is reached (and reported) in a batch of scenarios.
    lateLanding: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 2 }), weight: 1 }),
    retention: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 6 }), weight: 1 }),
    // The world's clock (docs/rules.md, 'Time'): none in most scenarios, else leases of 1-3 ticks (the stall fault's weight is drawn with the others).
    lease: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 1 }),
    // Poison messages (events/poison.ts): none in most scenarios, else one body (as the swarm draws them).
    poison: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.constant(1), weight: 1 }),
  })
  .map(({ drawn, dedupeWindow, lateLanding, retention, lease, poison, ...o }) => ({
    ...o,
    skew: false,
    weights: Object.fromEntries(KNOBS.map((k, i) => [k.name, drawn[i]])),
    // A lease comes with a clock whose horizon is check's.
    settings: { dedupeWindow, lateLanding, retention, poison, ...(lease > 0 ? { ticks: TICKS_DRAWN, lease } : {}) },
  }));

/** A schedule of up to `maxSteps` choices; an index shrinks toward 0, the first event enabled. */
export function scheduleArb(maxSteps = 60): fc.Arbitrary<number[]> {
  // size 'max': lengths spread up to maxSteps (fast-check's default size keeps arrays to about ten), as a bug may need a long run to set up.
  return fc.array(fc.nat({ max: 0xffff }), { maxLength: maxSteps, size: 'max' });
}

/** A scenario: the given world options (or ones drawn like the swarm's) and a schedule. */
export function scenarioArb(options: WorldOptions | fc.Arbitrary<WorldOptions> = worldOptionsArb, maxSteps = 60): fc.Arbitrary<Scenario> {
  return fc.record({ options: isArbitrary(options) ? options : fc.constant(options), schedule: scheduleArb(maxSteps) });
}

/** By shape, not instanceof: the caller's fast-check may be another copy than this package's. */
function isArbitrary(x: WorldOptions | fc.Arbitrary<WorldOptions>): x is fc.Arbitrary<WorldOptions> {
  return typeof (x as { generate?: unknown }).generate === 'function';
}

/** Steppers per rule set: derived from the statechart once, not per scenario. */
const steppersCache = new WeakMap<RuleSet, ReturnType<typeof steppersFor>>();

/** Runs `rules` on a scenario, checking the `always` properties at every step; the labels are the steps as a trace shows them. */
export function runScenario(rules: RuleSet, scenario: Scenario): ScheduleRun<World, WorldEvent> & { labels: string[] } {
  let steppers = steppersCache.get(rules);
  if (steppers === undefined) {
    steppers = steppersFor(rules, null);
    steppersCache.set(rules, steppers);
  }
  const system = outboxSystem(scenario.options, { rules }, steppers);
  const run = runSchedule(system, scenario.schedule);
  return { ...run, labels: run.events.map((e) => system.label(e)) };
}
