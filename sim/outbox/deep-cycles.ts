/**
 * Deep cycles: a sample of the runs in which a record came back to a status
 * (bigger or not) has that cycle taken again a fixed number of rounds, then
 * faults stop and the world must settle. A rule whose behaviour changes
 * after many cycles (a cap on requeues that strands a record, a counter
 * that wraps) shows only past the dozen cycles a world's budgets allow; the
 * rounds are the recorded cycle's own events, as long life takes them
 * (long-life.ts; docs/properties.md, 'Long life').
 */
import { runSeedFast, type Kept } from '../core/fast-run.ts';
import type { TransitionSystem } from '../core/system.ts';
import { CycleRounds, type CycleLife, type RecordCycle } from './long-life.ts';
import type { World, WorldEvent } from './world.ts';

/** Bounds of deep cycles: which runs (a seed that is a multiple of `every`), and the rounds of each cycle taken. */
export const DEEP_CYCLES = { every: 16, rounds: 40, stepsMax: 4_000 } as const;

/** How a deep cycle ended: a property broken, the world settled clean after its rounds, the cycle no longer coming back, or the steps' bound. */
export type DeepEnd = 'violation' | 'settled' | 'did-not-repeat' | 'steps-bound';

/** What a deep cycle found. */
export type DeepLife = CycleLife<DeepEnd>;

/**
 * Takes `cycle` again {@link DEEP_CYCLES}.rounds times in `system` (a world
 * of raised budgets), then stops faults and runs the world, with choices
 * seeded by `seed`, until it is quiet (the `eventually` properties checked
 * there) or `healStepsMax` steps pass (quiet-after-healing). A cycle that
 * came after faults stopped is not taken: it could not be healed again.
 */
export function liveDeep(
  system: TransitionSystem<World, WorldEvent>,
  events: readonly (WorldEvent | null)[],
  states: readonly World[],
  cycle: RecordCycle,
  seed: number,
  healStepsMax: number,
): DeepLife {
  const r = new CycleRounds(system, events, states, cycle);
  const end = (how: DeepEnd, violation: DeepLife['violation'] = null, tail: (WorldEvent | null)[] = []): DeepLife => ({
    cycle,
    rounds: tail.length > 0 || how !== 'violation' ? r.rounds : r.rounds + 1,
    steps: r.taken.length + tail.length,
    end: how,
    violation,
    events: [...r.taken, ...tail],
  });
  if (r.taken.includes(null)) return end('did-not-repeat');
  while (r.rounds < DEEP_CYCLES.rounds) {
    const out = r.round(DEEP_CYCLES.stepsMax);
    if (out === 'steps-bound') return end('steps-bound');
    if (out === 'not-back') return end('did-not-repeat');
    if (out !== null) return end('violation', out);
  }
  // Faults stop at once (no step of the faulty phase left), then the world's own liveness phase, on
  // check's own seed runner from where the rounds left the world (the same run as runSeed's: fast-run.test.ts).
  const kept: Kept<World, WorldEvent> = { states: [], events: [] };
  const healed = runSeedFast(system, seed, { faultStepsMax: 0, healStepsMax }, kept, r.state);
  const tail = kept.events;
  const v = healed.violation;
  return v === null ? end('settled', null, tail) : end('violation', { ...v, step: r.taken.length + v.step }, tail);
}
