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
import type { World, WorldEvent } from './world.ts';

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
});
