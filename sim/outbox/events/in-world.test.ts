/**
 * A kind's `inWorld` is a promise its `enabled` keeps: in a world whose
 * surroundings it says leave it out, it gives nothing, in every world a run
 * reaches. A random run's listing does not ask such a kind (choose.ts), so a
 * kind that broke the promise would silently lose events; here every world
 * of many seeded runs is asked directly. And the listing does skip them: a
 * run of a world without version skew never asks `upgrade`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failClosed, freshCycle } from '../../../model/catalog/index.ts';
import { BOUNDS_DEFAULT, fixedOptions, seedBounds, steppersFor, type CheckPlan } from '../../check.ts';
import { runSeed } from '../../core/random.ts';
import { outboxSystem } from '../outbox-system.ts';
import { swarmOptions } from '../options.ts';
import { idNames, type World } from '../world.ts';
import type { Subject } from './kind.ts';
import { EVENT_KINDS } from './table.ts';
import type { WorldContext } from './context.ts';
import { upgrade } from './process.ts';
import { choicesOf, lazyChoicesOf } from './choose.ts';

const plan = (extra: Partial<CheckPlan>): CheckPlan => ({ rules: failClosed, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT, ...extra });

const hinted = EVENT_KINDS.filter((k) => k.inWorld !== undefined);

/** The worlds of seeded runs of the swarm (with and without settings and version skew), each with its surroundings. */
function* seededWorlds(): Generator<{ w: World; ctx: WorldContext }> {
  for (const p of [plan({}), plan({ settings: { lateLanding: 2, ticks: 4, lease: 2, dedupeWindow: 2, retention: 2 }, oldRules: freshCycle })]) {
    const steppers = steppersFor(p.rules, p.oldRules);
    for (let seed = 1; seed <= 40; seed++) {
      const options = swarmOptions(seed, fixedOptions(p));
      const worldRules = { rules: p.rules, ...(p.oldRules ? { oldRules: p.oldRules } : {}) };
      const system = outboxSystem(options, worldRules, steppers);
      const ctx: WorldContext = { options, ids: idNames(options.ids), skew: options.skew && p.oldRules !== null, worldRules, steppers };
      for (const w of runSeed(system, seed, seedBounds(p.bounds, options), true).states ?? []) yield { w: w as World, ctx };
    }
  }
}

/** Every subject of a kind's range in a world. */
function subjects(range: string, w: World, ctx: WorldContext): Subject[] {
  if (range === 'engine') return w.engines.map((engine) => ({ engine, id: null }));
  if (range === 'engine-id') return w.engines.flatMap((engine) => ctx.ids.map((id) => ({ engine, id })));
  if (range === 'id') return ctx.ids.map((id) => ({ engine: null, id }));
  return [{ engine: null, id: null }];
}

describe('inWorld', () => {
  afterEach(() => vi.restoreAllMocks());

  it('holds: no kind is enabled in a world whose surroundings leave it out, in every world of seeded runs', () => {
    /** Per hinted kind: asked while left out, and enabled while in. */
    const out = new Map(hinted.map((k) => [k.name, 0]));
    const enabledIn = new Map(hinted.map((k) => [k.name, 0]));
    for (const { w, ctx } of seededWorlds()) {
      for (const k of hinted) {
        const inWorld = k.inWorld?.(ctx) ?? true;
        for (const at of subjects(k.range, w, ctx)) {
          const n = k.enabled(w, ctx, at).length;
          if (inWorld) enabledIn.set(k.name, (enabledIn.get(k.name) ?? 0) + n);
          else {
            out.set(k.name, (out.get(k.name) ?? 0) + 1);
            expect(n, `${k.name} enabled in a world that leaves it out`).toBe(0);
          }
        }
      }
    }
    // Each hinted kind was both left out and enabled somewhere: the runs asked it both ways.
    for (const k of hinted) {
      expect(out.get(k.name), `${k.name} never left out`).toBeGreaterThan(0);
      expect(enabledIn.get(k.name), `${k.name} never enabled`).toBeGreaterThan(0);
    }
  });

  it('names the kinds a setting, a budget, a knob or version skew switches off', () => {
    expect(hinted.map((k) => k.name)).toEqual(expect.arrayContaining(['upgrade', 'tick', 'stall', 'crash', 'tear-record', 'field-corrupt', 'forget', 'sweep', 'requeue', 'restore', 'timeout-in-transit', 'land']));
  });

  it("a random run's listing does not ask a kind its world leaves out (upgrade, without version skew), and lists what every kind lists", () => {
    const spy = vi.spyOn(upgrade, 'enabled');
    let compared = 0;
    for (const { w, ctx } of seededWorlds()) {
      if (ctx.skew) continue;
      const lazy = lazyChoicesOf(ctx);
      const picks: number[] = [];
      const weights: number[] = [];
      spy.mockClear();
      const n = lazy.drawable?.(w, picks, weights) ?? -1;
      const listed = Array.from({ length: Math.max(n, 0) }, (_, i) => lazy.choice(w, picks[i]));
      expect(spy).not.toHaveBeenCalled();
      // The same groups, events and weights as the listing of every kind.
      const every = choicesOf(w, ctx).filter((g) => g.events.length > 0 && g.weight > 0);
      expect(listed).toEqual(every);
      compared++;
    }
    expect(compared).toBeGreaterThan(200);
  });
});
