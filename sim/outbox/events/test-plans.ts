/**
 * Test support for the event table's tests (not itself a test): the check
 * plans of every world setting, and the worlds seeded runs of a plan reach,
 * each with the surroundings its listing is asked under.
 */
import { failClosed, freshCycle } from '../../../model/catalog/index.ts';
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import { BOUNDS_DEFAULT, fixedOptions, seedBounds, steppersFor, type CheckPlan } from '../../check.ts';
import { runSeed } from '../../core/random.ts';
import { swarmOptions } from '../options.ts';
import { outboxSystem } from '../outbox-system.ts';
import { idNames, type World } from '../world.ts';
import type { WorldContext } from './context.ts';

/** A check plan of `rules` with no seeds of its own (tests draw options per seed with `swarmOptions`). */
export const plan = (rules: RuleSet, extra: Partial<CheckPlan> = {}): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT, ...extra });

/**
 * fail-closed, but a 200 that says ok:false is read as transient (retried)
 * rather than as the 400 it is: a rule set that tells the two replies apart,
 * in whose worlds the broker's refuse-ok-false is offered (events/broker.ts).
 */
export const TELLS_OK_FALSE_APART: RuleSet = extendRules(failClosed, {
  name: 'tells-ok-false-apart',
  summary: 'fail-closed, an ok:false retried as transient',
  classify: (reply) => (reply === 'ok-false' ? 'transient' : failClosed.classify(reply)),
});

/** The worlds of every setting: a clock with leases, a retention sweep, a late landing, a dedupe window, version skew. */
export const SETTING_PLANS: readonly CheckPlan[] = [
  plan(failClosed),
  plan(freshCycle, { oldRules: failClosed }),
  plan(failClosed, { settings: { ticks: 6, lease: 2 } }),
  plan(freshCycle, { settings: { retention: 2 } }),
  plan(failClosed, { settings: { lateLanding: 3 }, oldRules: freshCycle }),
  plan(failClosed, { settings: { dedupeWindow: 2 }, broker: 'id-409' }),
];

/** The swarm without settings, with every setting on and version skew, and with a rule set telling ok:false apart: between them every hinted kind is enabled somewhere. */
export const PLAIN_AND_EVERY_SETTING: readonly CheckPlan[] = [
  plan(failClosed),
  plan(failClosed, { settings: { lateLanding: 2, ticks: 4, lease: 2, dedupeWindow: 2, retention: 2 }, oldRules: freshCycle }),
  plan(TELLS_OK_FALSE_APART),
];

/** Every world of the recorded runs of seeds 1..`seeds` of each plan, with the surroundings its listing is asked under. */
export function* seededWorlds(plans: readonly CheckPlan[], seeds: number): Generator<{ w: World; ctx: WorldContext }> {
  for (const p of plans) {
    const steppers = steppersFor(p.rules, p.oldRules);
    for (let seed = 1; seed <= seeds; seed++) {
      const options = swarmOptions(seed, fixedOptions(p));
      const worldRules = { rules: p.rules, ...(p.oldRules ? { oldRules: p.oldRules } : {}) };
      const system = outboxSystem(options, worldRules, steppers);
      const ctx: WorldContext = { options, ids: idNames(options.ids), skew: options.skew && p.oldRules !== null, worldRules, steppers };
      for (const w of runSeed(system, seed, seedBounds(p.bounds, options), true).states ?? []) yield { w: w as World, ctx };
    }
  }
}
