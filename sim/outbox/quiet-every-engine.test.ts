/**
 * The quiet test asks every engine, not the first for all
 * (docs/properties.md, 'quiet-after-healing (liveness bound)'). Idle engines are not alike
 * where a rule decides on the pid or two versions run side by side: a world
 * whose first engine would do nothing, and whose second would deliver, was
 * called quiet, and settled-after-healing reported a file "left live" that
 * the second engine was about to deliver (a false counterexample), or a
 * run ended before the other engine acted.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { BOUNDS_DEFAULT, steppersFor } from '../check.ts';
import { explore } from '../core/explore.ts';
import { explorePacked } from '../core/explore-packed.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from './explore-options.ts';
import { outboxLiveness, packedOutboxLiveness } from './explore-liveness.ts';
import { outboxSystem, type WorldRules } from './outbox-system.ts';
import { packedOutbox } from './packed/system.ts';
import { walkLabelled, walkPackedLabelled } from './test-labels.ts';
import { labelOf, type World } from './world.ts';

/** Selects nothing: an engine running it never starts work. */
const never: RuleSet = extendRules(failClosed, { name: 'never', summary: 'selects nothing', selectable: () => false });
/** Engine 1 selects nothing; every other engine runs fail-closed (a rule deciding on the pid). */
const pidOneIdle: RuleSet = extendRules(failClosed, { name: 'pid-one-idle', summary: 'engine 1 selects nothing', selectable: (_r, view) => view.who.pid !== 1 });

function systemOf(worldRules: WorldRules, sizes: Partial<ExploreSizes> = {}) {
  const options = exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes });
  return { options, system: outboxSystem(options, worldRules, steppersFor(worldRules.rules, worldRules.oldRules ?? null)) };
}

/** A file produced, scanned by e2 (a READY record written), and e2 gone before it claimed. */
const STRANDED = ['produce a', 'e2 scan a', 'crash e2 (claiming)'];

/** The world after `labels`, healed: after {@link STRANDED}, e1 idle and e3 restarted on the checked rules. */
function healedAfter(worldRules: WorldRules, sizes: Partial<ExploreSizes> = {}, labels = STRANDED) {
  const { options, system } = systemOf(worldRules, sizes);
  return { options, system, healed: (system.heal as (w: World) => World)(walkLabelled(system, labels)) };
}

describe('the quiet test asks every engine', () => {
  it('a rule deciding on the pid: engine 1 would not start, engine 3 would deliver: not quiet', () => {
    const { system, healed } = healedAfter({ rules: pidOneIdle });
    expect(healed.engines.map((p) => p.pid)).toEqual([1, 3]);
    expect(system.quiescent?.(healed)).toBe(false);
    // Where no engine would start, the same world is quiet: the test still says quiet where it is.
    const idle = healedAfter({ rules: never });
    expect(idle.system.quiescent?.(idle.healed)).toBe(true);
  });

  it('version skew: the first engine runs an old version that would not start, the restarted one the new: not quiet, on objects and on packed states', () => {
    const worldRules = { rules: failClosed, oldRules: never };
    const { options, system, healed } = healedAfter(worldRules, { skew: true });
    expect(healed.engines.map((p) => [p.pid, p.version])).toEqual([
      [1, 'old'],
      [3, 'new'],
    ]);
    expect(system.quiescent?.(healed)).toBe(false);
    const packed = packedOutbox(options, worldRules, system);
    if (packed.quiet === null) throw new Error('no packed quiet test');
    // The packed test heals the state it is given itself.
    const s = walkPackedLabelled(packed, STRANDED);
    expect(packed.quiet(s)).toBe(false);
  });

  it('whole searches: no false settled-after-healing, and the packed search agrees with the object search', () => {
    for (const [worldRules, sizes] of [
      [{ rules: failClosed, oldRules: never }, { skew: true }],
      [{ rules: pidOneIdle }, {}],
    ] as [WorldRules, Partial<ExploreSizes>][]) {
      const { options, system } = systemOf(worldRules, sizes);
      const objects = explore(system, { statesMax: 1_000_000 }, outboxLiveness(options, system, BOUNDS_DEFAULT.healStepsMax));
      const violations = objects.violations.map((v) => ({ violation: v.violation, labels: v.events.map(labelOf) }));
      // The first engine never starts, but the others deliver: the shortest trace of a stranded file is not "produce, then faults stop".
      for (const { labels } of violations) expect(labels.length).toBeGreaterThan(1);
      if (worldRules.rules === pidOneIdle) {
        expect(objects.complete).toBe(true);
        expect(violations).toEqual([]);
        continue;
      }
      const packed = packedOutbox(options, worldRules, system);
      const r = explorePacked(packed, { statesMax: 1_000_000 }, packedOutboxLiveness(outboxLiveness(options, system, BOUNDS_DEFAULT.healStepsMax), packed, options.engines));
      expect([r.states, r.violations.map((v) => ({ violation: v.violation, labels: v.events.map(labelOf) }))]).toEqual([objects.states, violations]);
    }
  });
});
