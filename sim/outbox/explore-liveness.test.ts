/**
 * The liveness search of an unreduced search (`--no-symmetry`): its cycle
 * search reaches far beyond a bounded search's states, and searched each
 * region once per order of the engines until it searched classes of states
 * (`livenessSymmetry`). Its memory per stored state is the measure: the
 * cycle search's flags are kept per state it met.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import retryPastCap from '../../properties/mutants/retry-past-cap.ts';
import type { RuleSet } from '../../model/rules.ts';
import { BOUNDS_DEFAULT, steppersFor } from '../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from './explore-options.ts';
import { exploreOutbox } from './explore-outbox.ts';
import { outboxLiveness, packedOutboxLiveness } from './explore-liveness.ts';
import { outboxSystem } from './outbox-system.ts';
import { reachedStates } from './packed/reached-states.ts';
import { packedOutbox } from './packed/system.ts';

function unreduced(rules: RuleSet, sizes: Partial<ExploreSizes>, statesMax: number) {
  return exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null), { statesMax, liveness: true, symmetry: false, stopAtFirst: false });
}

describe('liveness in an unreduced search', () => {
  it('four engines, 5,000 states: the cycle search meets a few states per stored state, under 2,000 bytes a state (it took 20,000: each region searched once per order of the engines)', () => {
    const r = unreduced(failClosed, { engines: 4, attemptsMax: 4, crashesMax: 4 }, 5_000);
    expect([r.explorer, r.states, r.violations.length]).toEqual(['packed', 5_000, 0]);
    expect(r.indexBytes / r.states).toBeLessThan(2_000);
  }, 120_000);

  it('a lasso found among classes is a real cycle: retry-past-cap, three engines, unreduced', () => {
    const r = unreduced(retryPastCap, { engines: 3 }, 1_000_000);
    const v = r.violations.find((x) => x.violation.property === 'quiet-after-healing');
    expect([v?.healed?.mode, v?.healed?.cycle.length]).toEqual(['unavailable-503', 3]);
  }, 120_000);
});

describe('the packed liveness test `busy`', () => {
  it('is true exactly where atRest answers busy for a busy engine, on every state of a search with crashes', () => {
    const options = exploreOptions({ ...EXPLORE_DEFAULTS, engines: 3, crashesMax: 2 });
    const objects = outboxSystem(options, { rules: failClosed }, steppersFor(failClosed, null));
    const system = packedOutbox(options, { rules: failClosed }, objects);
    const liveness = packedOutboxLiveness(outboxLiveness(options, objects, BOUNDS_DEFAULT.healStepsMax), system, 3);
    const states = reachedStates(system, 3_000);
    let busy = 0;
    for (const s of states) {
      const engines = system.unpack(s).engines;
      expect(liveness.busy?.(s)).toBe(engines.some((p) => p.state !== 'idle'));
      if (liveness.busy?.(s) === true) {
        busy++;
        expect(liveness.atRest(s)).toBe('busy');
      }
    }
    // Both kinds met: busy states, and idle ones the test says nothing of.
    expect(busy).toBeGreaterThan(100);
    expect(states.length - busy).toBeGreaterThan(10);
  });
});
