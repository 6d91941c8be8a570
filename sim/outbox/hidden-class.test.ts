/**
 * One hidden class per hot site of the seed loop (V8's maps): the objects the
 * kinds and the seed runner read at every step are made so that every seed's
 * objects share a class, and code optimised on the first seeds is not thrown
 * away ("wrong map" deoptimisations) when later seeds arrive. Asked of V8
 * itself (`%HaveSameMap`, natives syntax switched on for this process).
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import { BOUNDS_DEFAULT, fixedOptions, seedBounds, steppersFor, type CheckPlan } from '../check.ts';
import { runSeed } from '../core/random.ts';
import type { StepResult, TransitionSystem } from '../core/system.ts';
import { COVERED_SEEDS } from './swarm-coverage.ts';
import { outboxSystem } from './outbox-system.ts';
import { swarmOptions } from './options.ts';
import { uniformOptions } from './options-copy.ts';
import { idNames, type World, type WorldEvent } from './world.ts';
import type { WorldContext } from './events/context.ts';
import type { Subject } from './events/kind.ts';
import { EVENT_KINDS } from './events/table.ts';

setFlagsFromString('--allow-natives-syntax');
// Parsed after the flag is set: a function body may use natives syntax.
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const plan: CheckPlan = { rules: failClosed, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT };

describe('hidden classes on the seed loop', () => {
  it('holds the natives check itself to account', () => {
    expect(sameMap({ a: 1 }, { a: 2 })).toBe(true);
    expect(sameMap({ a: 1 }, { b: 1 })).toBe(false);
  });

  it('gives the options of seeds inside and past the covering rows one class', () => {
    const fixed = fixedOptions(plan);
    const first = uniformOptions(swarmOptions(1, fixed));
    for (const seed of [2, 7, 100, COVERED_SEEDS, COVERED_SEEDS + 1, 1000, 5000]) {
      const o = uniformOptions(swarmOptions(seed, fixed));
      expect(sameMap(o, first), `options of seed ${seed}`).toBe(true);
      expect(sameMap(o.weights, first.weights), `weights of seed ${seed}`).toBe(true);
      expect(sameMap(o.settings ?? {}, first.settings ?? {}), `settings of seed ${seed}`).toBe(true);
    }
  });

  it('gives every step result one class, also a step that notes a replaced park, and the first world’s lists the class of filled ones', () => {
    const steppers = steppersFor(plan.rules, null);
    let reference: StepResult<World> | null = null;
    let rewritten = 0;
    let lists = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const options = swarmOptions(seed, fixedOptions(plan));
      const system = outboxSystem(options, { rules: plan.rules }, steppers);
      const first = system.initial();
      const watched: TransitionSystem<World, WorldEvent> = {
        ...system,
        step: (w, e) => {
          const out = system.step(w, e);
          reference ??= out;
          expect(sameMap(out, reference)).toBe(true);
          if (out.state.parkedGone.length > w.parkedGone.length) rewritten++;
          for (const k of ['published', 'parkedGone', 'parkedAttempts'] as const) {
            if (out.state[k].length > 0) {
              expect(sameMap(first[k], out.state[k]), k).toBe(true);
              lists++;
            }
          }
          return out;
        },
      };
      runSeed(watched, seed, seedBounds(plan.bounds, options));
    }
    // The runs took the rewritten path (a park replaced) and filled the lists.
    expect(rewritten).toBeGreaterThan(0);
    expect(lists).toBeGreaterThan(100);
  });

  it('gives every entry of the event table one class (eventKind), whatever fields it leaves out', () => {
    const [first, ...rest] = EVENT_KINDS;
    for (const k of rest) expect(sameMap(k, first), k.name).toBe(true);
    // The table's entries differ in the fields they give: one class is not theirs by chance.
    expect(new Set(EVENT_KINDS.map((k) => k.weight === undefined)).size).toBe(2);
    expect(new Set(EVENT_KINDS.map((k) => k.inWorld === undefined)).size).toBe(2);
  });

  it('gives every kind’s enabled events one of the two classes of array literals', () => {
    const steppers = steppersFor(plan.rules, null);
    const empty: unknown[] = [];
    const filled = [{ kind: 'scan' }];
    const seen = new Map<string, number>();
    for (let seed = 1; seed <= 80; seed++) {
      const options = swarmOptions(seed, { ...fixedOptions(plan), settings: { lateLanding: 2 } });
      const system = outboxSystem(options, { rules: plan.rules }, steppers);
      const ctx: WorldContext = { options: uniformOptions(options), ids: idNames(options.ids), skew: false, worldRules: { rules: plan.rules }, steppers };
      // Every third state: the answers of the states between differ little.
      for (const w of (runSeed(system, seed, seedBounds(plan.bounds, options), true).states ?? []).filter((_w, i) => i % 3 === 0)) {
        const subjects: Subject[] = [{ engine: null, id: null }];
        for (const engine of w.engines) for (const id of [null, ...ctx.ids]) subjects.push({ engine, id });
        for (const id of ctx.ids) subjects.push({ engine: null, id });
        for (const k of EVENT_KINDS) {
          for (const at of subjects) {
            const out = k.enabled(w, ctx, at);
            expect(sameMap(out, empty) || sameMap(out, filled), `${k.name}: ${JSON.stringify(out)}`).toBe(true);
            if (out.length > 0) seen.set(k.name, (seen.get(k.name) ?? 0) + 1);
          }
        }
      }
    }
    // The kinds that made arrays of another class (by .map) were enabled.
    for (const k of ['land', 'requeue', 'resubmit']) expect(seen.get(k) ?? 0, k).toBeGreaterThan(0);
  });
});
