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
function search(rules: RuleSet, sizes: Partial<ExploreSizes>, statesMax = 1_000_000, depthMax?: number) {
  return exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null), { statesMax, ...(depthMax === undefined ? {} : { depthMax }) });
}

/** The same search over the object model. */
function searchObjects(rules: RuleSet, sizes: Partial<ExploreSizes>, statesMax = 1_000_000, depthMax?: number) {
  return explore(outboxModel(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null)), {
    statesMax,
    ...(depthMax === undefined ? {} : { depthMax }),
  });
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
  it.each([
    // The default world's deepest state is at depth 24: from there on the search is whole.
    [0, 1, 0, false],
    [9, 1909, 4142, false],
    [17, 16805, 44234, false],
    [23, 19039, 52426, false],
    [24, 19063, 52530, true],
    [40, 19063, 52530, true],
  ] as const)('depthMax %i: %i states, %i transitions, whole: %s; the same in both explorers', (depthMax, states, transitions, complete) => {
    const r = search(failClosed, {}, 1_000_000, depthMax);
    const o = searchObjects(failClosed, {}, 1_000_000, depthMax);
    expect({ complete: r.complete, stoppedBy: r.stoppedBy, states: r.states, transitions: r.transitions, depth: r.depth }).toEqual({
      complete,
      stoppedBy: complete ? null : 'max-depth',
      states,
      transitions,
      depth: Math.min(depthMax, 24),
    });
    expect([o.complete, o.stoppedBy, o.states, o.transitions, o.depth]).toEqual([r.complete, r.stoppedBy, r.states, r.transitions, r.depth]);
  });
  it('depthMax finds a violation exactly when the bound reaches its shortest trace', () => {
    const short = search(freshCycle, {}, 1_000_000, 17);
    expect([short.violations, short.complete, short.stoppedBy]).toEqual([[], false, 'max-depth']);
    const enough = search(freshCycle, {}, 1_000_000, 18);
    expect(enough.violations[0]?.events.length).toBe(18);
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
