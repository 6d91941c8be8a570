/**
 * A kind's `engineStates` is a promise its `enabled` keeps: for an engine in
 * any other lifecycle state it gives nothing. The listing of a group skips
 * such kinds for such engines (choose.ts), so a kind whose `enabled` broke
 * the promise would silently lose events; here every world of many seeded
 * runs (with late landings, clocks and version skew, so that every kind
 * with the hint is enabled somewhere) is asked directly.
 */
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle } from '../../../model/catalog/index.ts';
import { LIFECYCLE_STATES } from '../../../model/lifecycle.ts';
import { BOUNDS_DEFAULT, fixedOptions, seedBounds, steppersFor, type CheckPlan } from '../../check.ts';
import { runSeed } from '../../core/random.ts';
import { outboxSystem } from '../outbox-system.ts';
import { swarmOptions } from '../options.ts';
import { idNames, type World } from '../world.ts';
import type { Subject } from './kind.ts';
import { EVENT_KINDS } from './table.ts';
import { choicesOf } from './choose.ts';
import type { WorldContext } from './context.ts';

const plan = (extra: Partial<CheckPlan>): CheckPlan => ({ rules: failClosed, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT, ...extra });

const hinted = EVENT_KINDS.filter((k) => k.engineStates !== undefined);

describe('engineStates', () => {
  it('names lifecycle states only, on kinds whose range includes an engine', () => {
    expect(hinted.map((k) => k.name)).toEqual(expect.arrayContaining(['scan', 'drain', 'step', 'accept']));
    for (const k of hinted) {
      expect(['engine', 'engine-id']).toContain(k.range);
      for (const s of k.engineStates ?? []) expect(LIFECYCLE_STATES).toContain(s);
    }
  });

  it('holds: no kind is enabled for an engine in a state it does not list, in every world of seeded runs', () => {
    /** Per hinted kind, the states in which it was seen enabled (each must be one it lists). */
    const seen = new Map<string, Set<string>>(hinted.map((k) => [k.name, new Set<string>()]));
    for (const p of [plan({}), plan({ settings: { lateLanding: 2, ticks: 4, lease: 2 }, oldRules: freshCycle })]) {
      const steppers = steppersFor(p.rules, p.oldRules);
      for (let seed = 1; seed <= 40; seed++) {
        const options = swarmOptions(seed, fixedOptions(p));
        const worldRules = { rules: p.rules, ...(p.oldRules ? { oldRules: p.oldRules } : {}) };
        const system = outboxSystem(options, worldRules, steppers);
        const ctx: WorldContext = { options, ids: idNames(options.ids), skew: options.skew && p.oldRules !== null, worldRules, steppers };
        for (const w of runSeed(system, seed, seedBounds(p.bounds, options), true).states ?? []) {
          for (const engine of (w as World).engines) {
            for (const k of hinted) {
              const subjects: Subject[] = k.range === 'engine' ? [{ engine, id: null }] : ctx.ids.map((id) => ({ engine, id }));
              for (const at of subjects) {
                if (k.enabled(w as World, ctx, at).length === 0) continue;
                seen.get(k.name)?.add(engine.state);
                expect(k.engineStates, `${k.name} enabled for an engine in ${engine.state}`).toContain(engine.state);
              }
            }
          }
        }
      }
    }
    // Every hinted kind was enabled somewhere: the runs did ask each of them.
    for (const [name, states] of seen) expect(states.size, name).toBeGreaterThan(0);
  });

  it('changes no listing: the groups of a world list what every kind asked of every engine lists', () => {
    const p = plan({ settings: { lateLanding: 2 } });
    const steppers = steppersFor(p.rules, p.oldRules);
    let compared = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const options = swarmOptions(seed, fixedOptions(p));
      const worldRules = { rules: p.rules };
      const system = outboxSystem(options, worldRules, steppers);
      const ids = idNames(options.ids);
      const ctx: WorldContext = { options, ids, skew: false, worldRules, steppers };
      for (const w of runSeed(system, seed, seedBounds(p.bounds, options), true).states ?? []) {
        const world = w as World;
        const listed = choicesOf(world, ctx).flatMap((g) => g.events);
        // The engine-ranged kinds asked of every engine, without the hint, in the listing's order within each engine.
        const engineKinds = new Set(EVENT_KINDS.filter((k) => k.range === 'engine' || k.range === 'engine-id').map((k) => k.event as string));
        const byEngine = listed.filter((e) => engineKinds.has(e.kind));
        const asked = EVENT_KINDS.filter((k) => k.range === 'engine' || k.range === 'engine-id').flatMap((k) =>
          world.engines.flatMap((engine) => (k.range === 'engine' ? [{ engine, id: null }] : ids.map((id) => ({ engine, id }))).flatMap((at) => k.enabled(world, ctx, at))),
        );
        expect(new Set(byEngine.map((e) => JSON.stringify(e)))).toEqual(new Set(asked.map((e) => JSON.stringify(e))));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
