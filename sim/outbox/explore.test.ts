/**
 * Exhaustive search of small outbox worlds: pinned distinct-state counts
 * (a change to the model or the explorer that changes them must be
 * deliberate), shortest counterexamples, and the partial result at the bound.
 */
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle, freshCycleAfterDefinite } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import { steppersFor } from '../check.ts';
import { explore } from '../core/explore.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from './explore-options.ts';
import { exploreOutbox } from './explore-outbox.ts';
import { outboxModel } from './model.ts';

/** The search `outbox-sim explore` runs (packed states). */
function search(rules: RuleSet, sizes: Partial<ExploreSizes>, statesMax = 1_000_000) {
  return exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null), { statesMax });
}

/** The same search over the object model. */
function searchObjects(rules: RuleSet, sizes: Partial<ExploreSizes>, statesMax = 1_000_000) {
  return explore(outboxModel(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null)), { statesMax });
}

describe('explore: pinned state counts of fail-closed', () => {
  it.each([
    [{ engines: 1, crashesMax: 0 }, 340, 492],
    [{ engines: 1, crashesMax: 1 }, 1177, 1982],
    [{ engines: 2, crashesMax: 1 }, 19063, 52530],
    [{ engines: 3, crashesMax: 1 }, 208437, 779836],
  ] as const)('%o: %i states, %i transitions, complete, no violation', (sizes, states, transitions) => {
    const r = search(failClosed, sizes);
    expect(r.complete).toBe(true);
    expect(r.violations).toEqual([]);
    expect(r.states).toBe(states);
    expect(r.transitions).toBe(transitions);
  });
  it('the object-model explorer counts the same states', () => {
    const r = searchObjects(failClosed, { engines: 2, crashesMax: 1 });
    expect([r.complete, r.states, r.transitions]).toEqual([true, 19063, 52530]);
  });
});

describe('explore: shortest counterexamples', () => {
  it.each([
    ['fresh-cycle', 18, freshCycle],
    ['fresh-cycle-after-definite', 18, freshCycleAfterDefinite],
  ] as const)('%s breaks no-phantom-delivery in the default world in %i steps', (_name, steps, rules) => {
    const r = search(rules, {});
    expect(r.violations[0]?.violation.property).toBe('no-phantom-delivery');
    expect(r.violations[0]?.events.length).toBe(steps);
  });
});

describe('explore: bounds', () => {
  it('stops at statesMax with a partial result, never pretending to be complete', () => {
    const r = search(failClosed, { engines: 3 }, 5000);
    expect(r.complete).toBe(false);
    expect(r.stoppedBy).toBe('max-states');
    expect(r.states).toBe(5000);
  });
  it('stops when the caller says so (the heap guard), with the reason', () => {
    let asked = 0;
    const r = exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, engines: 3 }), { rules: failClosed }, steppersFor(failClosed, null), {
      statesMax: 1_000_000,
      progressEvery: 500,
      stopReason: () => (++asked === 3 ? 'memory (test)' : null),
    });
    expect(r).toMatchObject({ complete: false, stoppedBy: 'memory (test)', states: 1500 });
  });
});
