/**
 * The packed quiet test (`quiet.ts`): on every state of whole searches it
 * gives the object system's verdict (the liveness verdicts and traces are
 * those of the object explorer), and it asks the object system no quiet
 * question and no pass step at all: a state's quiet is replayed from the
 * derived programs, and memoised on what the walk reads. Worlds with a
 * clock or late landing keep the object test.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import type { RuleSet } from '../../../model/rules.ts';
import abandonAtCap from '../../../properties/mutants/abandon-at-cap.ts';
import neverReclaimDead from '../../../properties/mutants/never-reclaim-dead.ts';
import retryPastCap from '../../../properties/mutants/retry-past-cap.ts';
import { BOUNDS_DEFAULT, steppersFor } from '../../check.ts';
import { explore } from '../../core/explore.ts';
import { explorePacked } from '../../core/explore-packed.ts';
import type { TransitionSystem } from '../../core/system.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { outboxLiveness, packedOutboxLiveness } from '../explore-liveness.ts';
import { outboxSystem } from '../outbox-system.ts';
import { labelOf, type World, type WorldEvent } from '../world.ts';
import { packedOutbox } from './system.ts';

/** The object system with its quiet test counted. */
function counted(rules: RuleSet, sizes: Partial<ExploreSizes>) {
  const options = exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes });
  const system = outboxSystem(options, { rules }, steppersFor(rules, null));
  const calls = { quiescent: 0 };
  const watched: TransitionSystem<World, WorldEvent> = {
    ...system,
    quiescent: (w) => {
      calls.quiescent++;
      return system.quiescent?.(w) ?? false;
    },
  };
  return { options, system, watched, calls };
}

const summary = (r: ReturnType<typeof explore<World, WorldEvent>>) => ({
  states: r.states,
  violations: r.violations.map((v) => [v.violation, v.events.map(labelOf), v.healed?.mode, v.healed?.cycle.map(labelOf)]),
});

describe('the packed quiet test', () => {
  it.each([
    ['fail-closed', failClosed, {}],
    ['fail-closed, 2 ids', failClosed, { ids: 2, bodiesPerId: 1, engines: 1 }],
    ['never-reclaim-dead', neverReclaimDead, {}],
    ['retry-past-cap', retryPastCap, {}],
    ['abandon-at-cap', abandonAtCap, { engines: 1, attemptsMax: 3, crashesMax: 2 }],
  ] as const)('%s: the object explorer’s states and liveness verdicts, without asking the object system whether a state is quiet', (_name, rules, sizes) => {
    const { options, system } = counted(rules, sizes);
    const objects = explore(system, { statesMax: 1_000_000 }, outboxLiveness(options, system, BOUNDS_DEFAULT.healStepsMax));
    /** The packed search, its quiet test packed or (`packedQuiet` false) the object system's; what it asked the object system. */
    const search = (packedQuiet: boolean) => {
      const { watched, calls } = counted(rules, sizes);
      const base = packedOutbox(options, { rules }, watched);
      expect(base.quiet).not.toBeNull();
      const packed = packedQuiet ? base : { ...base, quiet: null };
      const r = explorePacked(packed, { statesMax: 1_000_000 }, packedOutboxLiveness(outboxLiveness(options, watched, BOUNDS_DEFAULT.healStepsMax), packed, options.engines));
      return { r, calls };
    };
    const fast = search(true);
    const slow = search(false);
    expect(summary(fast.r)).toEqual(summary(objects));
    expect(summary(slow.r)).toEqual(summary(objects));
    // Asked only for the verdict at a quiet state (the `eventually` properties), never whether it is quiet.
    expect(fast.calls.quiescent).toBe(0);
    expect(slow.calls.quiescent).toBeGreaterThan(0);
  });

  it('gives the object system’s quiet on every state whose engines are all idle, with and without engines alive', () => {
    const { options, system } = counted(failClosed, { engines: 1, attemptsMax: 3 });
    const packed = packedOutbox(options, { rules: failClosed }, system);
    const quiet = packed.quiet;
    if (quiet === null) throw new Error('no packed quiet test');
    let idle = 0;
    let none = 0;
    let quietStates = 0;
    const seen = new Set<string>();
    const queue: Int32Array[] = [];
    const s0 = new Int32Array(packed.width);
    packed.initial(s0);
    queue.push(s0);
    seen.add(s0.join());
    while (queue.length > 0) {
      const s = queue.shift() as Int32Array;
      const w = packed.unpack(s);
      if (w.engines.every((p) => p.state === 'idle')) {
        idle++;
        if (w.engines.length === 0) none++;
        const slow = system.quiescent?.((system.heal as (w: World) => World)(w)) ?? false;
        expect(quiet(s)).toBe(slow);
        if (slow) quietStates++;
      }
      for (const e of packed.events(s)) {
        const t = new Int32Array(packed.width);
        packed.apply(s, e, t);
        const k = t.join();
        if (!seen.has(k)) {
          seen.add(k);
          queue.push(t);
        }
      }
    }
    // The walk met quiet and busy states, and states with every engine crashed.
    expect(idle).toBeGreaterThan(100);
    expect(quietStates).toBeGreaterThan(0);
    expect(quietStates).toBeLessThan(idle);
    expect(none).toBeGreaterThan(0);
    expect(seen.size).toBeGreaterThan(1000);
  });

  it('is not used where quiet is judged at a later time too (a clock) or a step happens by itself (late landing)', () => {
    for (const settings of [{ ticks: 2, lease: 1 }, { lateLanding: 1 }] as Record<string, number>[]) {
      const { options, system } = counted(failClosed, { bodiesPerId: 1, crashesMax: 0, settings });
      expect(packedOutbox(options, { rules: failClosed }, system).quiet).toBeNull();
    }
  });
});
