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
import type { AnyKind, Range, Subject } from './kind.ts';
import { EVENT_KINDS, GROUPS } from './table.ts';
import { choicesOf } from './choose.ts';
import type { WorldContext } from './context.ts';
import { PLAIN_AND_EVERY_SETTING, seededWorlds, TELLS_OK_FALSE_APART } from './test-plans.ts';

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
    for (const p of [plan({}), plan({ settings: { lateLanding: 2, ticks: 4, lease: 2 }, oldRules: freshCycle }), plan({ rules: TELLS_OK_FALSE_APART })]) {
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

  it('changes no listing: each world lists, in order, what every kind asked in table order lists', () => {
    let compared = 0;
    for (const { w: world, ctx } of seededWorlds(PLAIN_AND_EVERY_SETTING, 25)) {
      const listed = choicesOf(world, ctx).map((g) => ({ group: g.group, events: g.events, weights: g.eventWeights ?? null }));
      expect(listed).toEqual(everyKindAsked(world, ctx));
      compared++;
    }
    expect(compared).toBeGreaterThan(200);
  });
});

/**
 * The listing as kind.ts's `Range` documents it, every kind asked of every
 * subject (no hint, no kind left out): per group, consecutive kinds of one
 * range kind form a pass; an engines pass goes engine by engine (its
 * `engine-id` kinds per id, then its `engine` kinds), an ids pass id by id,
 * a world pass once.
 */
function everyKindAsked(w: World, ctx: WorldContext): { group: string; events: unknown[]; weights: number[] | null }[] {
  const over = (r: Range) => (r === 'engine' || r === 'engine-id' ? 'engines' : r === 'id' ? 'ids' : 'world');
  return GROUPS.filter((g) => g.whileHealing || !w.healing).map((g) => {
    const events: unknown[] = [];
    const weights: number[] = [];
    const add = (k: AnyKind, at: Subject) => {
      for (const e of k.enabled(w, ctx, at)) {
        events.push(e);
        weights.push(k.weight !== undefined ? k.weight(w, ctx) : 1);
      }
    };
    const kinds = EVENT_KINDS.filter((k) => k.group === g.name);
    for (let i = 0; i < kinds.length; ) {
      let j = i;
      while (j < kinds.length && over(kinds[j].range) === over(kinds[i].range)) j++;
      const pass = kinds.slice(i, j);
      if (over(kinds[i].range) === 'engines') {
        for (const engine of w.engines) {
          for (const id of ctx.ids) for (const k of pass.filter((x) => x.range === 'engine-id')) add(k, { engine, id });
          for (const k of pass.filter((x) => x.range === 'engine')) add(k, { engine, id: null });
        }
      } else if (over(kinds[i].range) === 'ids') {
        for (const id of ctx.ids) for (const k of pass) add(k, { engine: null, id });
      } else {
        for (const k of pass) add(k, { engine: null, id: null });
      }
      i = j;
    }
    return { group: g.name, events, weights: g.weighted ? weights : null };
  });
}
