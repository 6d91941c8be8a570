/**
 * The listing a random run keeps (listing-memo.ts): each kind's `reads` is
 * all its `enabled` and `weight` read of a world (watched through a proxy on
 * every state of recorded runs in every setting world, under version skew,
 * healed worlds included); the changed fields are found for every field;
 * and the kept answers are those a fresh listing gives, asked about worlds
 * in any order, in every setting world and under the mutants' rule sets.
 */
import { describe, expect, it, vi } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { fixedOptions, seedBounds, steppersFor, type CheckPlan } from '../../check.ts';
import { runSeed } from '../../core/random.ts';
import { swarmOptions } from '../options.ts';
import { outboxSystem } from '../outbox-system.ts';
import { idNames, type World } from '../world.ts';
import { copyWorld } from '../world-copy.ts';
import { choicesOf, lazyChoicesOf } from './choose.ts';
import type { WorldContext } from './context.ts';
import type { Subject, WorldField } from './kind.ts';
import { changedFields, WORLD_FIELDS } from './listing-memo.ts';
import { EVENT_KINDS } from './table.ts';
import { drain } from './engine.ts';
import retryBackoff from '../../../properties/rule-api/retry-backoff.ts';
import { MUTANTS } from '../../../properties/mutants/index.ts';
import { plan, SETTING_PLANS } from './test-plans.ts';

const PLANS = SETTING_PLANS;

/** Each seed's world context and the states of its recorded run (the healed phase's included). */
function* runsOf(p: CheckPlan, seeds: number): Generator<{ ctx: WorldContext; states: World[] }> {
  const steppers = steppersFor(p.rules, p.oldRules);
  const worldRules = { rules: p.rules, ...(p.oldRules ? { oldRules: p.oldRules } : {}) };
  for (let seed = 1; seed <= seeds; seed++) {
    const options = swarmOptions(seed, fixedOptions(p));
    const system = outboxSystem(options, worldRules, steppers);
    const ctx: WorldContext = { options, ids: idNames(options.ids), skew: options.skew && worldRules.oldRules !== undefined, worldRules, steppers };
    yield { ctx, states: runSeed(system, seed, seedBounds(p.bounds, options), true).states ?? [] };
  }
}

/** `w` behind a proxy that notes every top-level field read into `read`. */
function watched(w: World, read: Set<string>): World {
  return new Proxy(w, {
    get(target, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe("a kind's reads", () => {
  it('are all its `enabled` and `weight` read of a world, for every subject, in every setting world', () => {
    const seen = new Map<string, Set<string>>(EVENT_KINDS.map((k) => [k.name, new Set<string>()]));
    let healed = 0;
    for (const p of PLANS) {
      for (const { ctx, states } of runsOf(p, 40)) {
        for (const w of states) {
          if (w.healing) healed++;
          for (const k of EVENT_KINDS) {
            const subjects: Subject[] =
              k.range === 'engine'
                ? w.engines.map((engine) => ({ engine, id: null }))
                : k.range === 'engine-id'
                  ? w.engines.flatMap((engine) => ctx.ids.map((id) => ({ engine, id })))
                  : k.range === 'id'
                    ? ctx.ids.map((id) => ({ engine: null, id }))
                    : [{ engine: null, id: null }];
            const read = seen.get(k.name) ?? new Set<string>();
            for (const at of subjects) {
              const found = k.enabled(watched(w, read), ctx, at);
              if (found.length > 0) k.weight?.(watched(w, read), ctx);
            }
          }
        }
      }
    }
    expect(healed).toBeGreaterThan(100);
    for (const k of EVENT_KINDS) {
      expect(k.reads, `${k.name} declares what it reads`).toBeDefined();
      const undeclared = [...(seen.get(k.name) ?? [])].filter((f) => !(k.reads ?? []).includes(f as WorldField));
      expect(undeclared, `${k.name} reads fields it does not declare`).toEqual([]);
    }
    // The proxy sees reads (this test can fail): a drain reads the record it would drain.
    expect([...(seen.get('drain') ?? [])]).toContain('records');
  }, 120_000);
});

describe('changedFields', () => {
  it('is the list of every field of a world, and finds each one changed alone', () => {
    const [{ states }] = [...runsOf(plan(failClosed), 1)];
    const w = states[0];
    expect([...WORLD_FIELDS].sort()).toEqual(Object.keys(w).sort());
    expect(changedFields(w, copyWorld(w))).toBe(0);
    WORLD_FIELDS.forEach((f, i) => {
      const other = copyWorld(w) as unknown as Record<string, unknown>;
      other[f] = { changed: f };
      expect(changedFields(w, other as unknown as World), f).toBe(1 << i);
    });
  });
});

describe("a run's kept listing", () => {
  it('answers as a fresh listing does, for worlds asked about in run order and in any order', () => {
    let compared = 0;
    // The setting worlds, and user rule sets (the mutants check must kill: each a changed decision).
    const plans = [...PLANS.map((p) => ({ p, seeds: 30 })), ...MUTANTS.map((m) => ({ p: plan(m.rules), seeds: 4 }))];
    for (const { p, seeds } of plans) {
      for (const { ctx, states } of runsOf(p, seeds)) {
        // Run order, then a scrambled order (far-apart worlds one after the other), on one memo.
        const order = [...states.keys(), ...states.keys()].map((i, n) => (n < states.length ? i : (i * 7919) % states.length));
        const lazy = lazyChoicesOf(ctx);
        for (const i of order) {
          const w = states[i];
          const fresh = choicesOf(w, ctx);
          expect(lazy.count(w)).toBe(fresh.length);
          for (let g = 0; g < fresh.length; g++) {
            expect(lazy.hasEvents(w, g)).toBe(fresh[g].events.length > 0);
            // Listed only every other world: a listing kept across worlds not listed in between.
            if ((i + g) % 2 === 0) expect(lazy.choice(w, g)).toEqual(fresh[g]);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  }, 120_000);
});

describe("a kind's readsIn", () => {
  /** Rules that select by time (a retry back-off), in a world with a clock: drain reads the clock there. */
  const SELECTING = plan(retryBackoff, { settings: { ticks: 6, lease: 2 } });

  it('is all its `enabled` and `weight` read in a world of those surroundings, and keeps the clock where a rule set selects by time', () => {
    const readsIn = EVENT_KINDS.filter((k) => k.readsIn !== undefined);
    expect(readsIn.map((k) => k.name)).toContain('drain');
    const clockRead = { selecting: false, plain: false };
    for (const p of [...PLANS, SELECTING]) {
      // The selecting rules over 40 seeds: a drain (the only read of the clock) needs a record READY without
      // its file, which no run of seeds 1-30 reaches since the poison feature moved the covering rows (39, 40 do).
      for (const { ctx, states } of runsOf(p, p === SELECTING ? 40 : 30)) {
        for (const k of readsIn) {
          const read = new Set<string>();
          for (const w of states) {
            const subjects: Subject[] =
              k.range === 'engine-id' ? w.engines.flatMap((engine) => ctx.ids.map((id) => ({ engine, id }))) : w.engines.map((engine) => ({ engine, id: null }));
            for (const at of subjects) if (k.enabled(watched(w, read), ctx, at).length > 0) k.weight?.(watched(w, read), ctx);
          }
          const declared = k.readsIn?.(ctx) ?? [];
          expect([...read].filter((f) => !declared.includes(f as WorldField)), `${k.name} reads fields its readsIn leaves out`).toEqual([]);
          if (k.name === 'drain' && read.has('clock')) clockRead[p === SELECTING ? 'selecting' : 'plain'] = true;
        }
      }
    }
    // The proxy sees the clock read (this test can fail) where the rules select by time, and only there.
    expect(clockRead).toEqual({ selecting: true, plain: false });
  }, 120_000);

  it('keeps the engine group across a tick where the rules select by no time (drain is not asked again), and answers as a fresh listing does', () => {
    const spy = vi.spyOn(drain, 'enabled');
    let kept = 0;
    for (const p of [plan(failClosed, { settings: { ticks: 6, lease: 2 } }), SELECTING]) {
      for (const { ctx, states } of runsOf(p, 20)) {
        for (const w of states) {
          const lazy = lazyChoicesOf(ctx);
          const picks: number[] = [];
          const weights: number[] = [];
          spy.mockClear();
          lazy.drawable?.(w, picks, weights);
          if (spy.mock.calls.length === 0) continue;
          // The same world a tick later: only the clock differs.
          const later = copyWorld(w);
          later.clock = (w.clock ?? 0) + 1;
          spy.mockClear();
          const n = lazy.drawable?.(later, picks, weights) ?? -1;
          if (p !== SELECTING) {
            expect(spy).not.toHaveBeenCalled();
            kept++;
          }
          const fresh = choicesOf(later, ctx).filter((g) => g.events.length > 0 && g.weight > 0);
          expect(Array.from({ length: Math.max(n, 0) }, (_, i) => lazy.choice(later, picks[i]))).toEqual(fresh);
        }
      }
    }
    expect(kept).toBeGreaterThan(20);
    spy.mockRestore();
  });
});
