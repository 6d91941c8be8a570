/**
 * Long life in `check`: a seed whose run brought a record back to a status
 * bigger than before (`CycleWatch`) is run again with its states kept, and
 * its grown cycles are sent round again (`liveLong`). What that found, and
 * what it spent, is counted per shard and printed in the summary
 * (docs/properties.md, 'Long life').
 */
import { runSeed, type RunBounds } from '../core/random.ts';
import { simulateEvents } from '../core/simulate.ts';
import type { TransitionSystem, Violation } from '../core/system.ts';
import { grownCycles, liveLong, LONG_LIFE_LIMITS, longLifeOptions, type GrownCycle } from './long-life.ts';
import type { WorldOptions } from './options.ts';
import type { World, WorldEvent } from './world.ts';

/** Cycles of one run sent round at most (shortest first). */
export const LONG_LIFE_CYCLES_PER_RUN = 2;

/** What long life did over a shard's seeds: plain counts, merged by adding. */
export interface LongLifeCounts {
  /** Runs that brought a record back bigger, run again with their states kept. */
  runs: number;
  /** Cycles sent round again. */
  cycles: number;
  /** Rounds taken, and steps (each cycle's recorded run up to it included). */
  rounds: number;
  steps: number;
  /** How each cycle's long life ended (`LongLifeEnd`). */
  ends: Record<string, number>;
  /** Runs that ran otherwise when run again (a rule set that keeps state between calls): left without a long life. */
  differed: number;
}

export function noLongLife(): LongLifeCounts {
  return { runs: 0, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0 };
}

export function addLongLife(into: LongLifeCounts, from: LongLifeCounts): void {
  into.runs += from.runs;
  into.cycles += from.cycles;
  into.rounds += from.rounds;
  into.steps += from.steps;
  into.differed += from.differed;
  for (const [k, n] of Object.entries(from.ends)) into.ends[k] = (into.ends[k] ?? 0) + n;
}

/** A violation long life found: a world of raised budgets (`longLifeOptions`) and the events that break it there. */
export interface LongLifeFinding {
  options: WorldOptions;
  events: (WorldEvent | null)[];
  violation: Violation & { step: number };
  cycle: GrownCycle;
  /** Rounds of the cycle after the recorded one, the last one cut at the violation. */
  rounds: number;
}

/**
 * Runs `seed` again with its states kept, and sends its grown cycles round
 * (at most {@link LONG_LIFE_CYCLES_PER_RUN}), counting into `counts`; the
 * first violation found, checked by re-running its events in the world of
 * its own raised budgets, or null.
 */
export function longLifeOfSeed(
  systemFor: (options: WorldOptions) => TransitionSystem<World, WorldEvent>,
  options: WorldOptions,
  seed: number,
  bounds: RunBounds,
  steps: number,
  counts: LongLifeCounts,
): LongLifeFinding | null {
  const run = runSeed(systemFor(options), seed, bounds, true);
  if (run.steps.length !== steps || run.violation !== null || run.states === null) {
    // Not this module's to judge: the check's probe of rule files refuses one that keeps state, and the summary counts these.
    counts.differed++;
    return null;
  }
  counts.runs++;
  const events = run.steps.map((s) => s.event);
  const cycles = grownCycles(run.states, events).slice(0, LONG_LIFE_CYCLES_PER_RUN);
  if (cycles.length === 0) return null;
  const wide = systemFor(longLifeOptions(options, LONG_LIFE_LIMITS.roundsMax));
  for (const cycle of cycles) {
    const life = liveLong(wide, events, run.states, cycle);
    counts.cycles++;
    counts.rounds += life.rounds;
    counts.steps += life.steps;
    counts.ends[life.end] = (counts.ends[life.end] ?? 0) + 1;
    if (life.violation === null) continue;
    // The world the trace names: budgets raised by the rounds begun, not by the most allowed.
    const own = longLifeOptions(options, life.rounds + 1);
    const again = simulateEvents(systemFor(own), life.events);
    if (again.invalidAt !== null || again.violation?.property !== life.violation.property || again.violation.step !== life.violation.step) {
      throw new Error(`check: seed ${seed}'s long life did not break ${life.violation.property} again in its own world`);
    }
    return { options: own, events: life.events, violation: again.violation, cycle, rounds: life.rounds + 1 };
  }
  return null;
}
