/**
 * The fast seed runner against the reference one (`runSeed`, which records
 * every step as a trace does): over thousands of seeded worlds of every
 * catalog rule set and of the mutants `check` must kill, with and without
 * version skew and a forgetful broker, in the setting worlds (a clock with
 * leases, a retention sweep, a late landing), each seed runs the same steps
 * to the same end, verdict, tag counts and reached goals, and whole shards
 * (with the traces of their first counterexamples) come out identical.
 * About 5,000 seeds, each run by both runners, kept small enough to run in
 * seconds.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG, failClosed, freshCycle } from '../../model/catalog/index.ts';
import { guardRules } from '../../model/rule-contract.ts';
import { MUTANTS } from '../../properties/mutants/index.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { BOUNDS_DEFAULT, fixedOptions, runShard, seedBounds, steppersFor, type CheckPlan } from '../check.ts';
import { outboxSystem } from '../outbox/outbox-system.ts';
import { outboxProperties } from '../outbox/properties.ts';
import { swarmOptions } from '../outbox/options.ts';
import type { World } from '../outbox/world.ts';
import { runSeedFast, type Kept } from './fast-run.ts';
import { runSeed, type RunBounds } from './random.ts';
import type { ChoiceGroup, TransitionSystem } from './system.ts';

const plan = (rules: RuleSet, extra: Partial<CheckPlan> = {}): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT, ...extra });

function compareSeeds(p: CheckPlan, from: number, to: number): number {
  const steppers = steppersFor(p.rules, p.oldRules);
  let violations = 0;
  for (let seed = from; seed < to; seed++) {
    const options = swarmOptions(seed, fixedOptions(p));
    const system = outboxSystem(options, { rules: p.rules, ...(p.oldRules ? { oldRules: p.oldRules } : {}) }, steppers);
    const bounds = seedBounds(p.bounds, options);
    const slow = runSeed(system, seed, bounds);
    const fast = runSeedFast(system, seed, bounds);
    expect({ seed, steps: fast.steps, end: fast.end, violation: fast.violation, tags: Object.fromEntries(fast.tags), reached: fast.reached }).toEqual({
      seed,
      steps: slow.steps.length,
      end: slow.end,
      violation: slow.violation,
      tags: slow.tags,
      reached: slow.reached,
    });
    if (slow.violation !== null) violations++;
  }
  return violations;
}

describe('fast seed runner against the reference runner', () => {
  it('runs each seed of every catalog rule set the same way (steps, end, verdict, tags, goals reached)', () => {
    let violations = 0;
    for (const rules of CATALOG) violations += compareSeeds(plan(rules), 1, 401);
    // The flawed rule sets' violations are among the runs compared.
    expect(violations).toBeGreaterThan(10);
  }, 120_000);

  it('runs each seed the same way under version skew, a forgetful broker and the opt-in at-most-once', () => {
    compareSeeds(plan(failClosed, { oldRules: freshCycle }), 1, 301);
    compareSeeds(plan(failClosed, { settings: { dedupeWindow: 2 }, broker: 'id-409' }), 1, 201);
    compareSeeds(plan(failClosed, { atMostOnce: true, broker: 'log' }), 1, 201);
  }, 120_000);

  it('runs each seed the same way in the setting worlds (a clock with leases, a retention sweep, a POST landing late)', () => {
    compareSeeds(plan(failClosed, { settings: { ticks: 6, lease: 2 } }), 1, 201);
    compareSeeds(plan(freshCycle, { settings: { retention: 2 } }), 1, 201);
    compareSeeds(plan(failClosed, { settings: { lateLanding: 3 }, oldRules: freshCycle }), 1, 201);
  }, 120_000);

  it('runs each seed the same way for the mutants check must kill (properties/mutants), each a changed decision', () => {
    let violations = 0;
    for (const m of MUTANTS) violations += compareSeeds(plan(m.rules), 1, 41);
    expect(violations).toBeGreaterThan(MUTANTS.length);
  }, 120_000);

  it('gives identical shards, first counterexamples and their traces included', () => {
    for (const p of [plan(freshCycle), plan(failClosed, { oldRules: freshCycle }), plan(freshCycle, { settings: { ticks: 6, lease: 1 } })]) {
      const fast = runShard(p, 1, 401);
      const reference = runShard(p, 1, 401, undefined, 'reference');
      expect(Object.keys(fast.first).length).toBeGreaterThan(0);
      expect(fast).toEqual(reference);
    }
  }, 120_000);

  it('reports a decision that breaks its contract at the same seed, step and events (run again to find them)', () => {
    const rules = guardRules(extendRules(failClosed, { name: 'bad', summary: '', classify: () => 'strange' as never }));
    const fast = runShard(plan(rules), 1, 40);
    const reference = runShard(plan(rules), 1, 40, undefined, 'reference');
    expect(fast.fault).toMatchObject({ decision: 'classify', kind: 'malformed' });
    expect(fast.fault?.step).toBeGreaterThan(1);
    expect(fast.fault?.events).toHaveLength((fast.fault?.step ?? 0) - 1);
    expect(fast).toEqual(reference);
  });
});

/** A counter that can only go up to `top`; its one weightless group ("idle") has an event once healing, and it is never quiescent. */
function counter(top: number): TransitionSystem<{ n: number; healing: boolean }, string> {
  type S = { n: number; healing: boolean };
  const groups = (s: S): ChoiceGroup<string>[] => [
    { group: 'up', weight: 1, events: s.n < top && !s.healing ? ['up'] : [] },
    { group: 'idle', weight: 0, events: s.healing ? ['idle'] : [] },
  ];
  return {
    initial: () => ({ n: 0, healing: false }),
    choices: groups,
    step: (s, e) => ({ state: e === 'up' ? { ...s, n: s.n + 1 } : s, tags: [e] }),
    label: (e) => e,
    key: (s) => JSON.stringify(s),
    properties: [],
    heal: (s) => ({ ...s, healing: true }),
    quiescent: () => false,
    groups: {
      count: (s) => groups(s).length,
      weight: (s, i) => groups(s)[i].weight,
      hasEvents: (s, i) => groups(s)[i].events.length > 0,
      choice: (s, i) => groups(s)[i],
    },
  };
}

describe('a fast run that keeps its states and events (what long life runs again)', () => {
  /** Calls `f` with each of seeds 1..`seeds` of each catalog rule set and of skew: its system and bounds. */
  const eachSeed = (seeds: number, f: (seed: number, system: TransitionSystem<World, unknown>, bounds: RunBounds) => void): void => {
    for (const p of [...CATALOG.map((rules) => plan(rules)), plan(failClosed, { oldRules: freshCycle })]) {
      const steppers = steppersFor(p.rules, p.oldRules);
      for (let seed = 1; seed <= seeds; seed++) {
        const options = swarmOptions(seed, fixedOptions(p));
        f(seed, outboxSystem(options, { rules: p.rules, ...(p.oldRules ? { oldRules: p.oldRules } : {}) }, steppers), seedBounds(p.bounds, options));
      }
    }
  };

  it('keeps the states and events runSeed keeps, the end of faults included, under each catalog rule set and under skew', () => {
    let kept = 0;
    eachSeed(120, (seed, system, bounds) => {
      const slow = runSeed(system, seed, bounds, true);
      const keep: Kept<World, unknown> = { states: [], events: [] };
      const fast = runSeedFast(system, seed, bounds, keep);
      expect({ seed, steps: fast.steps, end: fast.end, events: keep.events }).toEqual({ seed, steps: slow.steps.length, end: slow.end, events: slow.steps.map((s) => s.event) });
      expect(keep.states).toEqual(slow.states);
      kept += keep.states.length;
    });
    // Whole runs were compared, not empty ones.
    expect(kept).toBeGreaterThan(10_000);
  }, 120_000);

  it('runs from a given state as runSeed does: faults stopped at once, then the liveness phase (what deep cycles run)', () => {
    let compared = 0;
    eachSeed(60, (seed, system, seedRunBounds) => {
      const states = runSeed(system, seed, seedRunBounds, true).states ?? [];
      // A state a third of the way into the run, mid-faults, as a deep cycle's rounds leave one.
      const from = states[Math.floor(states.length / 3)];
      const bounds = { faultStepsMax: 0, healStepsMax: seedRunBounds.healStepsMax };
      const slow = runSeed(system, seed + 1, bounds, true, from);
      const keep: Kept<World, unknown> = { states: [], events: [] };
      const fast = runSeedFast(system, seed + 1, bounds, keep, from);
      expect({ seed, steps: fast.steps, end: fast.end, violation: fast.violation, events: keep.events }).toEqual({ seed, steps: slow.steps.length, end: slow.end, violation: slow.violation, events: slow.steps.map((s) => s.event) });
      expect(keep.states).toEqual(slow.states);
      compared += keep.events.length;
    });
    expect(compared).toBeGreaterThan(2_000);
  }, 120_000);
});

describe('groups without weight', () => {
  it('are never drawn, yet a weightless group with an event keeps a healed world from being quiet, as in the reference', () => {
    const system = counter(3);
    const bounds = { faultStepsMax: 10, healStepsMax: 5 };
    const slow = runSeed(system, 7, bounds);
    const fast = runSeedFast(system, 7, bounds);
    expect(slow.end).toBe('heal-bound');
    expect({ steps: fast.steps, end: fast.end, violation: fast.violation, tags: Object.fromEntries(fast.tags) }).toEqual({ steps: slow.steps.length, end: slow.end, violation: slow.violation, tags: slow.tags });
  });
});

describe('what the outbox properties say they read', () => {
  it('is all they read: each verdict is the same on a world holding only those fields', () => {
    const properties = outboxProperties(true).filter((p) => p.reads !== undefined);
    const p = plan(freshCycle, { broker: 'log' });
    const steppers = steppersFor(p.rules, null);
    for (let seed = 1; seed <= 100; seed++) {
      const options = swarmOptions(seed, fixedOptions(p));
      const system = outboxSystem(options, { rules: p.rules }, steppers);
      const run = runSeed(system, seed, seedBounds(p.bounds, options), true);
      for (const w of run.states ?? []) {
        for (const property of properties) {
          const only = Object.fromEntries((property.reads ?? []).map((f) => [f, w[f]])) as unknown as World;
          expect(property.check(only)).toEqual(property.check(w));
        }
      }
    }
  }, 120_000);
});
