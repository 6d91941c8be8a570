/**
 * A kind's `inWorld` is a promise its `enabled` keeps: in a world whose
 * surroundings it says leave it out, it gives nothing, in every world a run
 * reaches. A random run's listing does not ask such a kind (choose.ts), so a
 * kind that broke the promise would silently lose events; here every world
 * of many seeded runs is asked directly. And the listing does skip them: a
 * run of a world without version skew never asks `upgrade`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { World } from '../world.ts';
import type { Subject } from './kind.ts';
import { EVENT_KINDS } from './table.ts';
import type { WorldContext } from './context.ts';
import { upgrade } from './process.ts';
import { choicesOf, lazyChoicesOf } from './choose.ts';
import { PLAIN_AND_EVERY_SETTING, seededWorlds } from './test-plans.ts';


const hinted = EVENT_KINDS.filter((k) => k.inWorld !== undefined);

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
    for (const { w, ctx } of seededWorlds(PLAIN_AND_EVERY_SETTING, 40)) {
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
    for (const { w, ctx } of seededWorlds(PLAIN_AND_EVERY_SETTING, 40)) {
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
