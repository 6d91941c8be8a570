/**
 * Lassos found on the recorded steps (`sim/core/steady-graph.ts`), with no
 * cycle search ahead, against the object explorer, which still searches the
 * region ahead of each state: the same properties violated for every
 * catalog rule set and mutant, with and without symmetry reduction, and
 * every lasso found replays to quiet-after-healing.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../model/catalog/index.ts';
import { MUTANTS, SURVIVORS } from './mutants/index.ts';
import type { RuleSet } from '../model/rules.ts';
import { BOUNDS_DEFAULT, steppersFor } from '../sim/check.ts';
import { explore } from '../sim/core/explore.ts';
import { simulateEvents } from '../sim/core/simulate.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../sim/outbox/explore-options.ts';
import { outboxLiveness } from '../sim/outbox/explore-liveness.ts';
import { counterexampleOf, exploreOutbox } from '../sim/outbox/explore-outbox.ts';
import { outboxSystem } from '../sim/outbox/outbox-system.ts';

const RULE_SETS: readonly RuleSet[] = [...CATALOG, ...MUTANTS.map((m) => m.rules), ...SURVIVORS.map((s) => s.rules)];

function violated(r: { violations: readonly { violation: { property: string } }[] }): string[] {
  return [...new Set(r.violations.map((v) => v.violation.property))].sort();
}

describe('lassos on the recorded steps', () => {
  it('one body: the properties the object explorer finds violated, for every catalog rule set and mutant, with and without symmetry reduction; each lasso replays', () => {
    // Small enough for the object explorer on every rule set.
    const options = exploreOptions({ ...EXPLORE_DEFAULTS, bodiesPerId: 1 });
    let lassos = 0;
    let compared = 0;
    for (const rules of RULE_SETS) {
      const steppers = steppersFor(rules, null);
      const searches = [false, true].map((symmetry) => exploreOutbox(options, { rules }, steppers, { statesMax: 1_000_000, liveness: true, stopAtFirst: false, lookAhead: 0, symmetry }));
      // A rule set whose reads the packed states cannot hold is searched by the object explorer: nothing to compare.
      if (searches.some((r) => r.explorer !== 'packed')) continue;
      compared++;
      const system = outboxSystem(options, { rules }, steppers);
      const objects = explore(system, { statesMax: 1_000_000, stopAtFirst: false }, outboxLiveness(options, system, BOUNDS_DEFAULT.healStepsMax));
      expect([rules.name, ...searches.map(violated)]).toEqual([rules.name, violated(objects), violated(objects)]);
      for (const v of searches.flatMap((r) => r.violations).filter((x) => x.violation.property === 'quiet-after-healing')) {
        lassos++;
        const c = counterexampleOf(options, v);
        const sim = simulateEvents(outboxSystem(c.options, { rules }, steppers), c.events, { healStepsMax: BOUNDS_DEFAULT.healStepsMax });
        expect([rules.name, sim.invalidAt, sim.violation?.property]).toEqual([rules.name, null, 'quiet-after-healing']);
      }
    }
    expect(lassos).toBeGreaterThan(0);
    expect(compared).toBeGreaterThan(RULE_SETS.length / 2);
  }, 600_000);
});
