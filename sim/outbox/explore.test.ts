/**
 * Exhaustive search of small outbox worlds: pinned distinct-state counts
 * (a change to the system or the explorer that changes them must be
 * deliberate), shortest counterexamples of `always` and `eventually`
 * properties, and the partial result at the bound.
 */
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle, freshCycleAfterDefinite } from '../../model/catalog/index.ts';
import rebuildParkedSameBody from '../../properties/mutants/rebuild-parked-same-body.ts';
import type { RuleSet } from '../../model/rules.ts';
import { BOUNDS_DEFAULT, steppersFor } from '../check.ts';
import { explore } from '../core/explore.ts';
import { simulateEvents } from '../core/simulate.ts';
import neverQuarantine from '../../properties/mutants/never-quarantine.ts';
import abandonAtCap from '../../properties/mutants/abandon-at-cap.ts';
import retryPastCap from '../../properties/mutants/retry-past-cap.ts';
import unclassifiedNotCounted from '../../properties/mutants/unclassified-not-counted.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from './explore-options.ts';
import { outboxLiveness } from './explore-liveness.ts';
import { counterexampleOf, exploreOutbox } from './explore-outbox.ts';
import { outboxSystem } from './outbox-system.ts';
import { ANSWER_NAMES } from './options.ts';
import { labelOf } from './world.ts';

/** The search `outbox-sim explore` runs (packed states). */
function search(rules: RuleSet, sizes: Partial<ExploreSizes>, statesMax = 1_000_000, depthMax?: number) {
  return exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null), { statesMax, ...(depthMax === undefined ? {} : { depthMax }) });
}

/** The same search over the object system. */
function searchObjects(rules: RuleSet, sizes: Partial<ExploreSizes>, statesMax = 1_000_000, depthMax?: number) {
  return explore(outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null)), {
    statesMax,
    ...(depthMax === undefined ? {} : { depthMax }),
  });
}

/** The search `outbox-sim explore` runs, with the `eventually` properties. */
function searchLive(rules: RuleSet, sizes: Partial<ExploreSizes>, stopAtFirst = true) {
  return exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null), { statesMax: 1_000_000, liveness: true, stopAtFirst });
}

describe('explore: pinned state counts of fail-closed', () => {
  it.each([
    [{ engines: 1, crashesMax: 0 }, 340, 492],
    [{ engines: 1, crashesMax: 1 }, 1108, 1853],
    [{ engines: 2, crashesMax: 1 }, 17611, 48482],
    [{ engines: 3, crashesMax: 1 }, 192993, 721588],
  ] as const)('%o with the eventually properties: %i states, %i transitions, complete, no violation', (sizes, states, transitions) => {
    const r = searchLive(failClosed, sizes);
    expect(r.checked).toEqual(['no-phantom-delivery', 'delivered-as-written', 'honest-park', 'parked-stays-parked', 'exclusive-attempt', 'retries-deduped', 'bounded-record', 'no-silent-loss', 'settled-after-healing', 'quiet-after-healing']);
    expect([r.complete, r.stoppedBy, r.violations, r.states, r.transitions]).toEqual([true, null, [], states, transitions]);
  });
  it.each([
    [{ engines: 1, crashesMax: 0 }, 340, 492],
    [{ engines: 1, crashesMax: 1 }, 1108, 1853],
    [{ engines: 2, crashesMax: 1 }, 17611, 48482],
    [{ engines: 3, crashesMax: 1 }, 192993, 721588],
  ] as const)('%o: %i states, %i transitions, complete, no violation', (sizes, states, transitions) => {
    const r = search(failClosed, sizes);
    expect(r.complete).toBe(true);
    expect(r.violations).toEqual([]);
    expect(r.states).toBe(states);
    expect(r.transitions).toBe(transitions);
  });
  it('the object-system explorer counts the same states', () => {
    const r = searchObjects(failClosed, { engines: 2, crashesMax: 1 });
    expect([r.complete, r.states, r.transitions]).toEqual([true, 17611, 48482]);
  });
});

describe('explore: shortest counterexamples', () => {
  it.each([
    ['fresh-cycle', 'no-phantom-delivery', 18, freshCycle],
    // Its park of a 409 after a lost reply claims a non-delivery of a body the
    // broker holds (honest-park) before the fresh cycle's phantom shows.
    ['fresh-cycle-after-definite', 'honest-park', 10, freshCycleAfterDefinite],
  ] as const)('%s breaks %s in the default world in %i steps', (_name, property, steps, rules) => {
    const r = search(rules, {});
    expect(r.violations[0]?.violation.property).toBe(property);
    expect(r.violations[0]?.events.length).toBe(steps);
  });
});

describe('explore: parked-stays-parked per body (issue 20 item 6)', () => {
  it('a parked body rebuilt READY and sent again is found, the same in both explorers', () => {
    const sizes = { engines: 1, crashesMax: 1, operatorActionsMax: 1 };
    const r = search(rebuildParkedSameBody, sizes);
    const o = searchObjects(rebuildParkedSameBody, sizes);
    expect(r.violations[0]?.violation.property).toBe('parked-stays-parked');
    expect(o.violations[0]?.violation.property).toBe('parked-stays-parked');
    expect([r.states, r.violations[0]?.events.length]).toEqual([o.states, o.violations[0]?.events.length]);
  });
});

describe('explore: eventually properties, each with its shortest trace, which replays', () => {
  /** The trace explore writes for a violation, re-run as `replay` re-runs it. */
  function rerun(rules: RuleSet, v: ReturnType<typeof searchLive>['violations'][number]) {
    const c = counterexampleOf(exploreOptions(EXPLORE_DEFAULTS), v);
    expect(c.options.healAnswer).toBe(v.healed?.mode ?? 'accept');
    const system = outboxSystem(c.options, { rules }, steppersFor(rules, null));
    return simulateEvents(system, c.events, { healStepsMax: BOUNDS_DEFAULT.healStepsMax });
  }

  it.each([
    // A body left live where fail-closed quarantines it: unsettled once quiet.
    ['never-quarantine', 'settled-after-healing', 7, null, 0, neverQuarantine],
    // Parked at the attempts limit, its file abandoned live.
    ['abandon-at-cap', 'settled-after-healing', 14, null, 0, abandonAtCap],
    // At the limit the record goes back to READY: a broker that stays unavailable is retried forever.
    ['retry-past-cap', 'quiet-after-healing', 6, 'unavailable-503', 3, retryPastCap],
    ['unclassified-not-counted', 'quiet-after-healing', 5, 'garbled-200', 3, unclassifiedNotCounted],
  ] as const)('%s breaks %s: %i steps, then faults stop (steady answer %s, a cycle of %i)', (_name, property, steps, mode, cycle, rules) => {
    const r = searchLive(rules, {});
    const v = r.violations[0];
    expect([r.violations.length, v.violation.property, v.events.length, v.healed?.mode, v.healed?.cycle.length]).toEqual([1, property, steps, mode, cycle]);
    const sim = rerun(rules, v);
    expect(sim.invalidAt).toBeNull();
    expect(sim.violation?.property).toBe(property);
  });

  it('the object-system explorer finds the same liveness violations with the same traces', () => {
    for (const rules of [neverQuarantine, retryPastCap]) {
      const options = exploreOptions(EXPLORE_DEFAULTS);
      const system = outboxSystem(options, { rules }, steppersFor(rules, null));
      const objects = explore(system, { statesMax: 1_000_000 }, outboxLiveness(options, system, BOUNDS_DEFAULT.healStepsMax));
      const packed = searchLive(rules, {});
      const summary = (r: typeof objects) => r.violations.map((v) => [v.violation, v.events.map(labelOf), v.healed?.mode, v.healed?.cycle.map(labelOf)]);
      expect(summary(objects)).toEqual(summary(packed));
    }
  });

  it('a retry cap that is kept (fail-closed) is no lasso under any steady answer, and a lasso names its answer', () => {
    const options = exploreOptions(EXPLORE_DEFAULTS);
    const system = outboxSystem(options, { rules: failClosed }, steppersFor(failClosed, null));
    // Every broker answer but a crash during the POST, and one the same as another (refuse-ok-false: refuse-400 stands for it), can persist once faults stop.
    expect(outboxLiveness(options, system, BOUNDS_DEFAULT.healStepsMax).modes).toEqual(ANSWER_NAMES.filter((a) => a !== 'crash-in-post' && a !== 'refuse-ok-false'));
    expect(searchLive(failClosed, { attemptsMax: 3 }).violations).toEqual([]);
    expect(searchLive(retryPastCap, { attemptsMax: 3 }).violations[0]?.violation.detail).toMatch(/with the broker answering unavailable-503, a cycle of \d+ steps repeats forever/);
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
    // The default world's deepest state is at depth 22: from there on the search is whole.
    [0, 1, 0, false],
    [9, 1935, 4162, false],
    [17, 16237, 42824, false],
    [21, 17603, 48426, false],
    [22, 17611, 48482, true],
    [40, 17611, 48482, true],
  ] as const)('depthMax %i: %i states, %i transitions, whole: %s; the same in both explorers', (depthMax, states, transitions, complete) => {
    const r = search(failClosed, {}, 1_000_000, depthMax);
    const o = searchObjects(failClosed, {}, 1_000_000, depthMax);
    expect({ complete: r.complete, stoppedBy: r.stoppedBy, states: r.states, transitions: r.transitions, depth: r.depth }).toEqual({
      complete,
      stoppedBy: complete ? null : 'max-depth',
      states,
      transitions,
      depth: Math.min(depthMax, 22),
    });
    expect([o.complete, o.stoppedBy, o.states, o.transitions, o.depth]).toEqual([r.complete, r.stoppedBy, r.states, r.transitions, r.depth]);
  });
  it('depthMax finds a violation exactly when the bound reaches its shortest trace', () => {
    const short = search(freshCycle, {}, 1_000_000, 17);
    expect([short.violations, short.complete, short.stoppedBy]).toEqual([[], false, 'max-depth']);
    const enough = search(freshCycle, {}, 1_000_000, 18);
    expect(enough.violations[0]?.events.length).toBe(18);
  });
  it('asks before the visited set doubles, and stops there when refused', () => {
    const asked: number[] = [];
    const r = exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, engines: 3 }), { rules: failClosed }, steppersFor(failClosed, null), {
      statesMax: 1_000_000,
      beforeGrowth: (bytes) => (asked.push(bytes), bytes > 2 ** 20 ? 'memory (test: table growth)' : null),
    });
    // The set starts at 2^16 slots of 8 bytes and doubles at a load of 3/4: the second doubling (to 2 MiB) is refused.
    expect(asked).toEqual([2 ** 20, 2 ** 21]);
    expect(r).toMatchObject({ complete: false, stoppedBy: 'memory (test: table growth)', states: 2 ** 17 * 0.75 });
  });

  it('with liveness, also asks before the recorded steps\' arrays double (once each), and stops there when refused', () => {
    const search = (refuse: (bytes: number, states: number) => boolean) => {
      const asked: [number, number][] = [];
      let states = 0;
      const r = exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, engines: 3 }), { rules: failClosed }, steppersFor(failClosed, null), {
        statesMax: 1_000_000,
        liveness: true,
        progressEvery: 1,
        onProgress: (n) => void (states = n),
        beforeGrowth: (bytes) => (asked.push([bytes, states]), refuse(bytes, states) ? 'memory (test: table growth)' : null),
      });
      return { r, asked };
    };
    // The numbered visited set starts at 2^16 slots of 12 bytes: its first doubling asks for 1.5 MiB.
    const all = search(() => false);
    const steps = all.asked.filter(([bytes]) => bytes !== 1.5 * 2 ** 20 && bytes !== 3 * 2 ** 20);
    expect(steps.length).toBeGreaterThan(2);
    // Each growth is asked once: a size is asked at most twice, as the states' arrays and the edges' arrays (5 bytes an element each) double through it once each.
    const asks = new Map<number, number>();
    for (const [bytes] of steps) asks.set(bytes, (asks.get(bytes) ?? 0) + 1);
    expect(Math.max(...asks.values())).toBeLessThanOrEqual(2);
    const [refusedBytes, refusedAt] = steps[2];
    const { r } = search((bytes, states) => bytes === refusedBytes && states === refusedAt);
    expect(r).toMatchObject({ complete: false, stoppedBy: 'memory (test: table growth)' });
    expect(r.states).toBeLessThan(all.r.states);
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
