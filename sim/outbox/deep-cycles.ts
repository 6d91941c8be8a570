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
export const DEEP_CYCLES = { every: 16, rounds: 40, stepsMax: 4_000, tails: 4, tailFaultSteps: 60 } as const;

/** How a deep cycle ended: a property broken, the world settled clean after its rounds, the cycle no longer coming back, or the steps' bound. */
export type DeepEnd = 'violation' | 'settled' | 'did-not-repeat' | 'steps-bound';

/** What a deep cycle found, and how many steps of faults its tail took before faults stopped (0: at once). */
export type DeepLife = CycleLife<DeepEnd> & { tailFaultSteps: number };

/**
 * Takes `cycle` again {@link DEEP_CYCLES}.rounds times in `system` (a world
 * of raised budgets), then stops faults and runs the world, with choices
 * seeded by `seed`, until it is quiet (the `eventually` properties checked
 * there) or `healStepsMax` steps pass (quiet-after-healing); then, from the
 * same deep state, {@link DEEP_CYCLES}.tails - 1 more tails that keep faults
 * on for up to `tailFaultSteps` steps first. A cycle that came after faults
 * stopped is not taken: it could not be healed again.
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
  // `tried`: steps of the tails run before this one, which found nothing (counted, not kept).
  const end = (how: DeepEnd, violation: DeepLife['violation'] = null, tail: (WorldEvent | null)[] = [], tried = 0): DeepLife => ({
    cycle,
    rounds: tail.length > 0 || how !== 'violation' ? r.rounds : r.rounds + 1,
    steps: r.taken.length + tried + tail.length,
    end: how,
    violation,
    events: [...r.taken, ...tail],
    // A tail's events up to its null (the end of faults) are faults; a violation during them has no null.
    tailFaultSteps: tail.indexOf(null) < 0 ? tail.length : tail.indexOf(null),
  });
  if (r.taken.includes(null)) return end('did-not-repeat');
  while (r.rounds < DEEP_CYCLES.rounds) {
    const out = r.round(DEEP_CYCLES.stepsMax);
    if (out === 'steps-bound') return end('steps-bound');
    if (out === 'not-back') return end('did-not-repeat');
    if (out !== null) return end('violation', out);
  }
  // First faults stop at once (no step of the faulty phase left), then the world's own liveness phase, on
  // check's own seed runner from where the rounds left the world (the same run as runSeed's: fast-run.test.ts).
  // Then tails that keep faults on a while from the same deep state: a flaw that needs one more fault once a
  // counter is past a threshold (a timeout taken as transient after 8 attempts) needs the fault there.
  let steps = r.taken.length;
  let first: (WorldEvent | null)[] = [];
  for (let t = 0; t < DEEP_CYCLES.tails; t++) {
    const kept: Kept<World, WorldEvent> = { states: [], events: [] };
    const faultStepsMax = t === 0 ? 0 : DEEP_CYCLES.tailFaultSteps;
    const healed = runSeedFast(system, tailSeed(seed, t), { faultStepsMax, healStepsMax }, kept, r.state);
    steps += kept.events.length;
    if (t === 0) first = kept.events;
    const v = healed.violation;
    if (v !== null) return end('violation', { ...v, step: r.taken.length + v.step }, kept.events, steps - r.taken.length - kept.events.length);
  }
  return end('settled', null, first, steps - r.taken.length - first.length);
}

/** The seed of a deep cycle's tail `t`: the run's own for the first, others drawn apart (below 2^31, as every seed). */
function tailSeed(seed: number, t: number): number {
  return t === 0 ? seed : (seed * 7 + t * 0x9e37) % 0x7fff_ffff;
}

/** Candidates deep cycles probes for a counting cycle: the run's shortest cycles, at most this many. */
const PROBED_CYCLES = 4;

/**
 * The cycles deep cycles take of a run's cycles (shortest first): the
 * shortest, and the one whose rounds count up the most numbers of its
 * record (attempts kept across requeues, a resend epoch, a counter of the
 * rule set's own), when that is another. A rule that acts past a threshold
 * (after 8 attempts, after 15 requeues) is reached only by rounds that count
 * up, and the shortest cycle often resets what it counts. Each candidate is
 * taken twice to see which numbers grow from one round to the next.
 */
export function deepCyclesOf(
  system: TransitionSystem<World, WorldEvent>,
  events: readonly (WorldEvent | null)[],
  states: readonly World[],
  cycles: readonly RecordCycle[],
): RecordCycle[] {
  const [shortest] = cycles;
  if (shortest === undefined) return [];
  let best: RecordCycle | null = null;
  let bestCount = 0;
  for (const c of cycles.slice(0, PROBED_CYCLES)) {
    const count = countersUp(system, events, states, c);
    if (count > bestCount) [best, bestCount] = [c, count];
  }
  return best === null || best === shortest ? [shortest] : [shortest, best];
}

/**
 * How many top-level numbers of the cycle's record are larger after its
 * second round than after its first: 0 when a round does not come back, the
 * most of all when one breaks a property (its rounds then find it).
 */
function countersUp(system: TransitionSystem<World, WorldEvent>, events: readonly (WorldEvent | null)[], states: readonly World[], cycle: RecordCycle): number {
  const r = new CycleRounds(system, events, states, cycle);
  if (r.taken.includes(null)) return 0;
  const first = r.round(DEEP_CYCLES.stepsMax);
  if (first !== null) return typeof first === 'object' ? Number.MAX_SAFE_INTEGER : 0;
  const once = r.state.records[cycle.id];
  const second = r.round(DEEP_CYCLES.stepsMax);
  if (second !== null) return typeof second === 'object' ? Number.MAX_SAFE_INTEGER : 0;
  const twice = r.state.records[cycle.id];
  if (once?.kind !== 'record' || twice?.kind !== 'record') return 0;
  const was = once.record as unknown as Readonly<Record<string, unknown>>;
  const now = twice.record as unknown as Readonly<Record<string, unknown>>;
  let n = 0;
  for (const k in now) {
    const x = was[k];
    const y = now[k];
    if (typeof x === 'number' && typeof y === 'number' && y > x) n++;
  }
  return n;
}
