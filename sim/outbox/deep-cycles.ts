/**
 * Deep cycles: a sample of the runs in which a record came back to a status
 * (bigger or not) has that cycle taken again a fixed number of rounds, then
 * faults stop and the world must settle. A rule whose behaviour changes
 * after many cycles (a cap on requeues that strands a record, a counter
 * that wraps) shows only past the dozen cycles a world's budgets allow; the
 * rounds are the recorded cycle's own events, as long life takes them
 * (long-life.ts; docs/properties.md, 'Long life').
 */
import { locatedIn } from './life-position.ts';
import { runSeedFast, type Kept } from '../core/fast-run.ts';
import type { TransitionSystem } from '../core/system.ts';
import { sameCanonical } from '../core/canonical.ts';
import type { Violation } from '../core/system.ts';
import { CycleRounds, enabledEvent, groupEvents, inRound, type CycleLife, type RecordCycle } from './long-life.ts';
import type { World, WorldEvent } from './world.ts';
import { NO_THRESHOLDS, type RuleThresholds } from './thresholds.ts';

/** Bounds of deep cycles: which runs (a seed that is a multiple of `every`), and the rounds of each cycle taken. */
export const DEEP_CYCLES = { every: 16, rounds: 40, stepsMax: 4_000, tails: 4, tailFaultSteps: 60 } as const;

/**
 * Bounds of a cycle taken toward a threshold (thresholds.ts): rounds until
 * the counted field reaches it (at most `roundsMax`, as far as the probe's
 * values), `pastRounds` more, then `tails` tails (the first without faults,
 * the others with up to DEEP_CYCLES.tailFaultSteps steps of them); between
 * the first tail and the others, up to `deviations` rounds that each take
 * one event of the cycle otherwise (another event of its group: another
 * broker answer, another crash point), then stop faults; then as many
 * from the round that brought the field to the threshold, and from the
 * round after it: a rule that acts there and not past it (a sign bit at
 * attempt 7 of a bitmap, with an attempts limit of 9 that parks the record
 * past it) is met only there.
 */
export const TOWARD_THRESHOLD = { roundsMax: 512, stepsMax: 30_000, pastRounds: 2, tails: 4, deviations: 48 } as const;

/** A threshold a cycle counts a field up toward: its field, and the value from which the rule set acts otherwise. */
export interface CycleTarget {
  field: string;
  at: number;
}

/** How a deep cycle ended: a property broken, the world settled clean after its rounds, the cycle no longer coming back, the steps' bound, or (toward a threshold) the rounds' bound with the field still below it. */
export type DeepEnd = 'violation' | 'settled' | 'did-not-repeat' | 'steps-bound' | 'below-threshold';

/** What a deep cycle found, and how many steps of faults its tail took before faults stopped (0: at once). */
export type DeepLife = CycleLife<DeepEnd> & {
  tailFaultSteps: number;
  /** Toward a threshold: which, and whether the violation came in a round with one event taken otherwise (its tail's steps are that round's, to quiet). */
  toward?: CycleTarget & { deviated: boolean; crossing?: true };
};

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
  target: CycleTarget | null = null,
): DeepLife {
  const r = new CycleRounds(system, events, states, cycle);
  // `tried`: steps of the tails run before this one, which found nothing (counted, not kept).
  const end = (how: DeepEnd, violation: DeepLife['violation'] = null, tail: (WorldEvent | null)[] = [], tried = 0, deviated = false): DeepLife => ({
    cycle,
    rounds: tail.length > 0 || how !== 'violation' ? r.rounds : r.rounds + 1,
    steps: r.taken.length + tried + tail.length,
    end: how,
    violation,
    events: [...r.taken, ...tail],
    // A tail's events up to its null (the end of faults) are faults; a violation during them has no null.
    tailFaultSteps: tail.indexOf(null) < 0 ? tail.length : tail.indexOf(null),
    ...(target === null ? {} : { toward: { ...target, deviated } }),
  });
  if (r.taken.includes(null)) return end('did-not-repeat');
  // Toward a threshold: until the field reaches it, and a few rounds more (its own bound, the steps' the same).
  let roundsMax: number = DEEP_CYCLES.rounds;
  if (target !== null) roundsMax = TOWARD_THRESHOLD.roundsMax + TOWARD_THRESHOLD.pastRounds;
  let past = -1;
  // Toward a threshold: where the round that brought the field to it began, and where the next began.
  const crossing: RoundStart[] = [];
  while (r.rounds < roundsMax) {
    if (target !== null && past < 0 && valueOf(r.state, cycle.id, target.field) >= target.at) past = r.rounds;
    if (past >= 0 && r.rounds >= past + TOWARD_THRESHOLD.pastRounds) break;
    // Toward a far threshold the rounds are many: their steps in all are bounded too (reported as the steps' bound).
    if (target !== null && r.taken.length > TOWARD_THRESHOLD.stepsMax) return end('steps-bound');
    const before: RoundStart = { state: r.state, taken: r.taken.length, rounds: r.rounds };
    if (target !== null && (past === r.rounds || crossing.length === 1) && crossing.length < 2) crossing.push(before);
    const out = r.round(DEEP_CYCLES.stepsMax);
    if (out === 'steps-bound') return end('steps-bound');
    if (out === 'not-back') return end('did-not-repeat');
    if (out !== null) return end('violation', out);
    if (target !== null && past < 0 && crossing.length === 0 && valueOf(r.state, cycle.id, target.field) >= target.at) crossing.push(before);
  }
  // First faults stop at once (no step of the faulty phase left), then the world's own liveness phase, on
  // check's own seed runner from where the rounds left the world (the same run as runSeed's: fast-run.test.ts).
  // Then tails that keep faults on a while from the same deep state: a flaw that needs one more fault once a
  // counter is past a threshold (a timeout taken as transient after 8 attempts) needs the fault there.
  let steps = r.taken.length;
  let first: (WorldEvent | null)[] = [];
  if (target !== null && past < 0 && valueOf(r.state, cycle.id, target.field) < target.at) return end('below-threshold');
  const tails = target === null ? DEEP_CYCLES.tails : TOWARD_THRESHOLD.tails;
  for (let t = 0; t < tails; t++) {
    const kept: Kept<World, WorldEvent> = { states: [], events: [] };
    const faultStepsMax = t === 0 ? 0 : DEEP_CYCLES.tailFaultSteps;
    const healed = locatedIn(() => [...r.taken, ...kept.events], () => runSeedFast(system, tailSeed(seed, t), { faultStepsMax, healStepsMax }, kept, r.state));
    steps += kept.events.length;
    if (t === 0) first = kept.events;
    const v = healed.violation;
    if (v !== null) return end('violation', { ...v, step: r.taken.length + v.step }, kept.events, steps - r.taken.length - kept.events.length);
    if (t === 0 && target !== null) {
      // From the deep state, then from the rounds that reached the threshold.
      const here: RoundStart = { state: r.state, taken: r.taken.length, rounds: r.rounds };
      for (const from of [here, ...crossing]) {
        const d = deviations(system, r, events, states, cycle, from, seed, healStepsMax);
        steps += d.steps;
        if (d.found === null) continue;
        const life = end('violation', d.found.violation, d.found.tail, steps - r.taken.length - d.found.tail.length, true);
        if (from === here) return life;
        // The trace is the rounds up to where the round taken otherwise began, then its tail: not the rounds after it.
        return { ...life, rounds: from.rounds + 1, events: [...r.taken.slice(0, from.taken), ...d.found.tail], toward: { ...target, deviated: true, crossing: true } };
      }
    }
  }
  return end('settled', null, first, steps - r.taken.length - first.length);
}

/**
 * Rounds of `r`'s cycle from `from` (where its rounds left the world, or
 * where one of them began), each with one
 * event taken otherwise: at each event of the round in turn, each other
 * event its group lists there (another answer of the broker, another crash
 * point), then the round's own events where enabled, the `always`
 * properties checked after each step, then faults stop and the world runs
 * to quiet. At most {@link TOWARD_THRESHOLD}.deviations rounds: a flaw past
 * a threshold that needs one fault the cycle did not have (a lost reply
 * where the recorded round had a refusal) is found in the round after it.
 */
function deviations(
  system: TransitionSystem<World, WorldEvent>,
  r: CycleRounds,
  events: readonly (WorldEvent | null)[],
  states: readonly World[],
  cycle: RecordCycle,
  from: RoundStart,
  seed: number,
  healStepsMax: number,
): { steps: number; found: { violation: Violation & { step: number }; tail: (WorldEvent | null)[] } | null } {
  // Each step is checked as a round's steps are (CycleRounds.broken).
  const broken = (w: World): Violation | null => r.broken(w);
  // The round as taken from where it begins; a decision that breaks is placed after the events to it (life-position.ts).
  const before = r.taken.slice(0, from.taken);
  const path = roundPath(system, from.state, events, states, cycle, before);
  let steps = 0;
  let tried = 0;
  for (let i = 0; i < path.length; i++) {
    const at = path[i];
    for (const other of groupEvents(system, at.state, at.event)) {
      if (sameCanonical(other, at.event)) continue;
      if (tried++ >= TOWARD_THRESHOLD.deviations) return { steps, found: null };
      const tail: (WorldEvent | null)[] = path.slice(0, i).map((p) => p.event);
      const { world: w, violation: v } = locatedIn(
        () => [...before, ...tail],
        () => {
          const next = system.step(at.state, other).state;
          tail.push(other);
          return restOfRound(system, next, at.k, events, states, cycle, broken, tail);
        },
      );
      steps += tail.length;
      if (v !== null) return { steps, found: { violation: { ...v, step: from.taken + tail.length }, tail } };
      const kept: Kept<World, WorldEvent> = { states: [], events: [] };
      const healed = locatedIn(() => [...before, ...tail, ...kept.events], () => runSeedFast(system, tailSeed(seed, 0), { faultStepsMax: 0, healStepsMax }, kept, w));
      steps += kept.events.length;
      const hv = healed.violation;
      if (hv !== null) return { steps, found: { violation: { ...hv, step: from.taken + tail.length + hv.step }, tail: [...tail, ...kept.events] } };
    }
  }
  return { steps, found: null };
}

/** Where a round of a deep cycle began: the world, the events taken before it, and the rounds before it. */
interface RoundStart {
  state: World;
  taken: number;
  rounds: number;
}

/** A step of a round: the state before it, the recorded cycle's index of its event, and the event as taken there. */
interface RoundStep {
  state: World;
  k: number;
  event: WorldEvent;
}

/** The cycle's round as taken from `from` (reached by the events `before`): each of its events that is enabled there, in order. */
function roundPath(system: TransitionSystem<World, WorldEvent>, from: World, events: readonly (WorldEvent | null)[], states: readonly World[], cycle: RecordCycle, before: readonly (WorldEvent | null)[]): RoundStep[] {
  const path: RoundStep[] = [];
  let state = from;
  locatedIn(
    () => [...before, ...path.map((p) => p.event)],
    () => {
      for (let k = cycle.from; k < cycle.to; k++) {
        const event = enabledEvent(system, state, inRound(events[k] as WorldEvent, states[k], state));
        if (event === null) continue;
        const next = system.step(state, event).state;
        path.push({ state, k, event });
        state = next;
      }
    },
  );
  return path;
}

/**
 * The rest of a round after a step taken otherwise: from `w`, the cycle's
 * events after index `k` where enabled, each appended to `tail` and the
 * `always` properties checked after it. The world at the round's end, or
 * the first violation.
 */
function restOfRound(
  system: TransitionSystem<World, WorldEvent>,
  w: World,
  k: number,
  events: readonly (WorldEvent | null)[],
  states: readonly World[],
  cycle: RecordCycle,
  broken: (w: World) => Violation | null,
  tail: (WorldEvent | null)[],
): { world: World; violation: Violation | null } {
  let v = broken(w);
  for (let j = k + 1; j < cycle.to && v === null; j++) {
    const e = enabledEvent(system, w, inRound(events[j] as WorldEvent, states[j], w));
    if (e === null) continue;
    w = system.step(w, e).state;
    tail.push(e);
    v = broken(w);
  }
  return { world: w, violation: v };
}

/** The seed of a deep cycle's tail `t`: the run's own for the first, others drawn apart (below 2^31, as every seed). */
function tailSeed(seed: number, t: number): number {
  return t === 0 ? seed : (seed * 7 + t * 0x9e37) % 0x7fff_ffff;
}

/** The number `field` of `id`'s record in `w`, or -Infinity when it has none. */
function valueOf(w: World, id: string, field: string): number {
  const slot = w.records[id];
  const v = slot?.kind === 'record' ? slot.record[field] : undefined;
  return typeof v === 'number' ? v : Number.NEGATIVE_INFINITY;
}

/** Candidates deep cycles probes for a counting cycle: the run's shortest cycles, at most this many. */
const PROBED_CYCLES = 4;

/** With thresholds, candidates probed for a cycle that counts toward one: the run's shortest cycles, at most this many. */
const TOWARD_PROBED_CYCLES = 16;

/** A cycle deep cycles takes, and the threshold its rounds count toward (null: a fixed number of rounds). */
export interface DeepCycle {
  cycle: RecordCycle;
  target: CycleTarget | null;
}

/**
 * The cycles deep cycles take of a run's cycles (shortest first): the
 * shortest, and the one whose rounds count up the most numbers of its
 * record (attempts kept across requeues, a resend epoch, a counter of the
 * rule set's own), when that is another. A rule that acts past a threshold
 * (after 8 attempts, after 15 requeues) is reached only by rounds that count
 * up, and the shortest cycle often resets what it counts. Each candidate is
 * taken twice to see which numbers grow from one round to the next. With
 * `thresholds` (the values the rule set acts past: thresholds.ts), also the
 * shortest of the run's first 16 cycles that counts such a field up while
 * it is below one live for the record, toward the nearest; `towardOnly`:
 * that one alone.
 */
export function deepCyclesOf(
  system: TransitionSystem<World, WorldEvent>,
  events: readonly (WorldEvent | null)[],
  states: readonly World[],
  cycles: readonly RecordCycle[],
  thresholds: RuleThresholds = NO_THRESHOLDS,
  towardOnly = false,
): DeepCycle[] {
  const [shortest] = cycles;
  if (shortest === undefined) return [];
  let best: RecordCycle | null = null;
  let bestCount = 0;
  let toward: DeepCycle | null = null;
  const probed = thresholds.byField.size > 0 ? TOWARD_PROBED_CYCLES : PROBED_CYCLES;
  for (let i = 0; i < cycles.length && i < probed; i++) {
    const c = cycles[i];
    if ((towardOnly || i >= PROBED_CYCLES) && toward !== null) break;
    const { count, target } = countersUp(system, events, states, c, thresholds, !towardOnly);
    if (i < PROBED_CYCLES && count > bestCount) [best, bestCount] = [c, count];
    if (toward === null && target !== null) toward = { cycle: c, target };
  }
  const fixed: DeepCycle[] = (best === null || best === shortest ? [shortest] : [shortest, best]).map((cycle) => ({ cycle, target: null }));
  if (towardOnly) return toward === null ? [] : [toward];
  return toward === null ? fixed : [...fixed, toward];
}

/**
 * How many top-level numbers of the cycle's record are larger after its
 * second round than after its first: 0 when a round does not come back, the
 * most of all when one breaks a property (its rounds then find it); and of
 * those in `thresholds`, the first whose value is below one of its
 * thresholds live for the record (RuleThresholds.live), toward the nearest.
 */
function countersUp(
  system: TransitionSystem<World, WorldEvent>,
  events: readonly (WorldEvent | null)[],
  states: readonly World[],
  cycle: RecordCycle,
  thresholds: RuleThresholds,
  far: boolean,
): { count: number; target: CycleTarget | null } {
  const none = { count: 0, target: null };
  const r = new CycleRounds(system, events, states, cycle);
  if (r.taken.includes(null)) return none;
  const first = r.round(DEEP_CYCLES.stepsMax);
  if (first !== null) return typeof first === 'object' ? { count: Number.MAX_SAFE_INTEGER, target: null } : none;
  const once = r.state.records[cycle.id];
  const second = r.round(DEEP_CYCLES.stepsMax);
  if (second !== null) return typeof second === 'object' ? { count: Number.MAX_SAFE_INTEGER, target: null } : none;
  const twice = r.state.records[cycle.id];
  if (once?.kind !== 'record' || twice?.kind !== 'record') return none;
  const was = once.record as unknown as Readonly<Record<string, unknown>>;
  const now = twice.record as unknown as Readonly<Record<string, unknown>>;
  let n = 0;
  let target: CycleTarget | null = null;
  for (const k in now) {
    const x = was[k];
    const y = now[k];
    if (typeof x !== 'number' || typeof y !== 'number' || y <= x) continue;
    n++;
    const at = thresholds.byField.has(k) ? thresholds.nextLive(k, y, twice.record, far) : undefined;
    if (target === null && at !== undefined) target = { field: k, at };
  }
  return { count: n, target };
}
