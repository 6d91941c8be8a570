/**
 * Long life in `check`: a seed whose run brought a record back to a status
 * bigger than before (`CycleWatch`) is run again with its states kept, and
 * its grown cycles are sent round again (`liveLong`). What that found, and
 * what it spent, is counted per shard and printed in the summary
 * (docs/properties.md, 'Long life').
 */
import { inWorld, locatedIn } from './life-position.ts';
import type { RunBounds } from '../core/random.ts';
import { runSeedFast, type Kept } from '../core/fast-run.ts';
import { simulateEvents } from '../core/simulate.ts';
import type { TransitionSystem, Violation } from '../core/system.ts';
import { grownCycles, liveLong, LONG_LIFE_LIMITS, longLifeOptions, recordCycles, type RecordCycle } from './long-life.ts';
import { DEEP_CYCLES, deepCyclesOf, liveDeep, TOWARD_THRESHOLD } from './deep-cycles.ts';
import type { WorldOptions } from './options.ts';
import type { RuleThresholds } from './thresholds.ts';
import { orderedShapes } from './id-shape.ts';
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
  /** Deep cycles (deep-cycles.ts): the sampled runs in which a record came back (and runs toward a threshold: thresholds.ts), their cycles taken (`toward`: of them, toward a threshold), steps, and how each ended (`DeepEnd`). */
  deep: { runs: number; cycles: number; steps: number; ends: Record<string, number>; toward?: number; thresholds?: ThresholdSeen[]; clock?: { instants: number[]; waits: number[] }; bodies?: string[]; ids?: string[] };
}

/**
 * A threshold the probe saw (thresholds.ts): a record number and the value
 * from which a decision answers otherwise. Kept in the counts so that the
 * summary says what deep cycles aimed at, and that the probe saw none (an
 * empty list): a rule that acts past a value beyond the probe's is reached
 * only by the fixed rounds. Absent: no probe ran (a shard file written
 * before it, or a check that runs none).
 */
export interface ThresholdSeen {
  field: string;
  at: number;
}

/** `a` and `b` together, each field and value once, by field then value. */
export function unionThresholds(a: readonly ThresholdSeen[], b: readonly ThresholdSeen[]): ThresholdSeen[] {
  const out: ThresholdSeen[] = [];
  for (const t of [...a, ...b]) if (!out.some((o) => o.field === t.field && o.at === t.at)) out.push({ field: t.field, at: t.at });
  return out.sort((x, y) => (x.field < y.field ? -1 : x.field > y.field ? 1 : x.at - y.at));
}

export function noLongLife(): LongLifeCounts {
  return { runs: 0, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0, deep: { runs: 0, cycles: 0, steps: 0, ends: {}, toward: 0 } };
}

export function addLongLife(into: LongLifeCounts, from: LongLifeCounts): void {
  into.runs += from.runs;
  into.cycles += from.cycles;
  into.rounds += from.rounds;
  into.steps += from.steps;
  into.differed += from.differed;
  into.deep.runs += from.deep.runs;
  into.deep.cycles += from.deep.cycles;
  into.deep.steps += from.deep.steps;
  if (from.deep.toward !== undefined) into.deep.toward = (into.deep.toward ?? 0) + from.deep.toward;
  // Every thread probes alike; a union keeps a merge of shards of one plan as any one of them.
  if (from.deep.thresholds !== undefined) into.deep.thresholds = unionThresholds(into.deep.thresholds ?? [], from.deep.thresholds);
  // Where the clock matters, as the probe saw (thresholds.ts, probeClock), alike in every thread: a union too.
  if (from.deep.clock !== undefined) {
    const was = into.deep.clock ?? { instants: [], waits: [] };
    const union = (a: readonly number[], b: readonly number[]): number[] => [...new Set([...a, ...b])].sort((x, y) => x - y);
    into.deep.clock = { instants: union(was.instants, from.deep.clock.instants), waits: union(was.waits, from.deep.clock.waits) };
  }
  // The body shapes a decision reads (body-probe.ts), alike in every thread: a union, in the probe's order.
  if (from.deep.bodies !== undefined) into.deep.bodies = [...new Set([...(into.deep.bodies ?? []), ...from.deep.bodies])];
  // The id shapes a decision folds (id-probe.ts): a union, in the shapes' order.
  if (from.deep.ids !== undefined) into.deep.ids = orderedShapes([...(into.deep.ids ?? []), ...from.deep.ids]);
  addEnds(into.deep.ends, from.deep.ends);
  addEnds(into.ends, from.ends);
}

/** Adds counts of ends by name. */
function addEnds(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}

/** A violation long life found: a world of raised budgets (`longLifeOptions`) and the events that break it there. */
export interface LongLifeFinding {
  options: WorldOptions;
  events: (WorldEvent | null)[];
  violation: Violation & { step: number };
  cycle: RecordCycle;
  /** Rounds of the cycle after the recorded one, the last one cut at the violation. */
  rounds: number;
  /** Found by deep cycles: the rounds were a fixed number, then faults stopped (at once, or after a tail of them). */
  deep: boolean;
  /** Deep cycles: the steps of faults after the rounds before faults stopped (0: at once). */
  tailFaultSteps: number;
  /** Deep cycles toward a threshold of the rule set's (thresholds.ts): its field and value, and whether a round with one event taken otherwise found it. */
  toward?: { field: string; at: number; deviated: boolean; crossing?: true };
}

/** Re-runs a finding's events in the world its trace names: it must break the same property at the same step. */
function confirmed(system: TransitionSystem<World, WorldEvent>, seed: number, events: readonly (WorldEvent | null)[], v: Violation & { step: number }, healStepsMax: number): Violation & { step: number } {
  const again = simulateEvents(system, events, { healStepsMax });
  if (again.invalidAt !== null || again.violation?.property !== v.property || again.violation.step !== v.step) {
    throw new Error(`check: seed ${seed}'s long life did not break ${v.property} again in its own world`);
  }
  return again.violation;
}

/** Deep cycles asked of a run: with `thresholds` a cycle toward one of them too (`towardOnly`: that one alone). */
export interface DeepAsk {
  thresholds: RuleThresholds;
  towardOnly: boolean;
}

/**
 * Runs `seed` again with its states kept (once), and with `grown` sends its
 * grown cycles round (at most {@link LONG_LIFE_CYCLES_PER_RUN}); then, when
 * they found nothing and `deep` is asked, takes its shortest cycle of any
 * kind its fixed number of rounds and then to quiet (deep-cycles.ts), and a
 * cycle toward a threshold; counting into `counts`. The first violation
 * found, checked by re-running its events in the world of its own raised
 * budgets, or null.
 */
export function longLifeOfSeed(
  systemFor: (options: WorldOptions) => TransitionSystem<World, WorldEvent>,
  options: WorldOptions,
  seed: number,
  bounds: RunBounds,
  steps: number,
  counts: LongLifeCounts,
  grown = true,
  deep: DeepAsk | null = null,
): LongLifeFinding | null {
  // Run again by check's own runner, its states and events kept (the same run as runSeed's: fast-run.test.ts).
  const kept: Kept<World, WorldEvent> = { states: [], events: [] };
  const run = inWorld(options, () => locatedIn(() => kept.events, () => runSeedFast(systemFor(options), seed, bounds, kept)));
  if (run.steps !== steps || run.violation !== null) {
    // Not this module's to judge: the check's probe of rule files refuses one that keeps state, and the summary counts these.
    counts.differed++;
    return null;
  }
  const recorded: RecordedRun = { systemFor, options, seed, bounds, events: kept.events, states: kept.states };
  const found = grown ? grownOfRun(recorded, counts) : null;
  if (found !== null || deep === null) return found;
  return deepOfRun(recorded, counts, deep.thresholds, deep.towardOnly);
}

/** A seed's run recorded again ({@link longLifeOfSeed}): its world by options, its options, seed and bounds, and its events and states. */
interface RecordedRun {
  systemFor: (options: WorldOptions) => TransitionSystem<World, WorldEvent>;
  options: WorldOptions;
  seed: number;
  bounds: RunBounds;
  events: readonly (WorldEvent | null)[];
  states: readonly World[];
}

/** Long life of a recorded run: its grown cycles sent round until they stop growing, break a property or hit a bound. */
function grownOfRun(recorded: RecordedRun, counts: LongLifeCounts): LongLifeFinding | null {
  const { systemFor, options, seed, bounds, events, states } = recorded;
  counts.runs++;
  const cycles = grownCycles(states, events).slice(0, LONG_LIFE_CYCLES_PER_RUN);
  if (cycles.length === 0) return null;
  const wideOptions = longLifeOptions(options, LONG_LIFE_LIMITS.roundsMax);
  const wide = systemFor(wideOptions);
  for (const cycle of cycles) {
    const life = inWorld(wideOptions, () => liveLong(wide, events, states, cycle));
    counts.cycles++;
    counts.rounds += life.rounds;
    counts.steps += life.steps;
    counts.ends[life.end] = (counts.ends[life.end] ?? 0) + 1;
    if (life.violation === null) continue;
    // The world the trace names: budgets raised by the rounds begun, not by the most allowed.
    const own = longLifeOptions(options, life.rounds + 1);
    return { options: own, events: life.events, violation: confirmed(systemFor(own), seed, life.events, life.violation, bounds.healStepsMax), cycle, rounds: life.rounds + 1, deep: false, tailFaultSteps: 0 };
  }
  return null;
}

/** Deep cycles of a recorded run: its shortest cycle (bigger or not), and the one that counts its record up, each taken its rounds, then to quiet (deep-cycles.ts). */
function deepOfRun(recorded: RecordedRun, counts: LongLifeCounts, thresholds: RuleThresholds, towardOnly: boolean): LongLifeFinding | null {
  const { systemFor, options, seed, bounds, events, states } = recorded;
  counts.deep.runs++;
  // The cycles before faults stopped: one after it could not be healed again.
  const faultsEnd = events.indexOf(null);
  const before = recordCycles(states, events, false).filter((c) => faultsEnd < 0 || c.to <= faultsEnd);
  // One world for the rounds, the end of faults and the trace: its budgets cover every round.
  const own = longLifeOptions(options, DEEP_CYCLES.rounds + 1);
  const system = systemFor(own);
  // A cycle toward a threshold takes up to its own bound of rounds: its world's budgets cover them.
  const ownToward = longLifeOptions(options, TOWARD_THRESHOLD.roundsMax + TOWARD_THRESHOLD.pastRounds + 1);
  let systemToward: TransitionSystem<World, WorldEvent> | null = null;
  for (const { cycle, target } of inWorld(own, () => deepCyclesOf(system, events, states, before, thresholds, towardOnly))) {
    if (target !== null) counts.deep.toward = (counts.deep.toward ?? 0) + 1;
    const sys = target === null ? system : (systemToward ??= systemFor(ownToward));
    const life = inWorld(target === null ? own : ownToward, () => liveDeep(sys, events, states, cycle, seed, bounds.healStepsMax, target));
    counts.deep.cycles++;
    counts.deep.steps += life.steps;
    counts.deep.ends[life.end] = (counts.deep.ends[life.end] ?? 0) + 1;
    if (life.violation === null) continue;
    return { options: target === null ? own : ownToward, events: life.events, violation: confirmed(sys, seed, life.events, life.violation, bounds.healStepsMax), cycle, rounds: life.rounds, deep: true, tailFaultSteps: life.tailFaultSteps, ...(life.toward ? { toward: life.toward } : {}) };
  }
  return null;
}
