/**
 * The trace of a run up to a broken decision: the events taken before the
 * step at which a rule set's decision threw or broke its contract, recorded
 * as an ordinary trace (no violation), so that `replay` re-runs the world to
 * the very state in which the decision was called.
 *
 * A decision can also break in the liveness phase's look-ahead: the quiet
 * test (probe-position.ts) or the explorer's cycle search, which step passes
 * the run or search had not taken once faults stop. The trace then goes on
 * with the switch to the liveness phase, the clock moved on as the test
 * moved it, and the look-ahead's steps, up to the one that broke; the broker
 * answers there as it answered in the look-ahead (the world's `healAnswer`).
 * That trace is kept only when re-running it reaches the broken decision
 * again. Otherwise the trace ends where the look-ahead began, and the line
 * says so (`FaultReach`).
 */
import { simulateEvents } from '../core/simulate.ts';
import { writeTrace, type BrokenDecisionNote } from '../trace-format.ts';
import { ruleFaultOf } from '../../model/rule-fault.ts';
import { outboxSystem, type Steppers } from './outbox-system.ts';
import type { WorldOptions } from './options.ts';
import type { ProbePosition } from './probe-position.ts';
import { outboxHeader, traceSteps, type RulesPair } from './record-trace.ts';
import type { TransitionSystem } from '../core/system.ts';
import type { World, WorldEvent } from './world.ts';
import { clockStepTo, nowOf } from './events/clock.ts';

/**
 * How far the written trace goes: 'decision' (to the state in which the
 * decision broke, the look-ahead's steps included when it broke in one),
 * or 'look-ahead' (to where a look-ahead began: its steps could not be
 * re-run as one run).
 */
export type FaultReach = 'decision' | 'look-ahead';

/** A written fault trace. */
export interface FaultTrace {
  path: string;
  steps: number;
  reach: FaultReach;
  /** Whether the trace holds steps of the liveness phase's look-ahead. */
  lookAhead: boolean;
}

/**
 * Writes the trace of the steps before a broken decision under `dir`:
 * `events` (taken without fault; after a null, the liveness search's steps
 * past the state it expanded), then the quiet test's steps when the
 * decision broke in it (`probe`).
 */
export function writeStepsBefore(
  dir: string,
  pair: RulesPair,
  steppers: Steppers,
  seed: number,
  options: WorldOptions,
  events: readonly (WorldEvent | null)[],
  origin: string,
  probe?: ProbePosition,
  broken?: Omit<BrokenDecisionNote, 'reach'>,
): FaultTrace {
  const plan = tracePlan(pair, steppers, options, events, probe);
  const steps = traceSteps(plan.sim.initial, plan.sim.steps);
  const header = outboxHeader(pair, seed, plan.options, null, origin, steps.length, null);
  // The header says what broke, so that a rendering or a replay of the trace does not read as a run that ended clean.
  if (broken !== undefined) header.brokenDecision = { ...broken, reach: plan.reach };
  const { path } = writeTrace(dir, header, steps);
  return { path, steps: steps.length, reach: plan.reach, lookAhead: plan.lookAhead };
}

type Simulated = ReturnType<typeof simulateEvents<World, WorldEvent>>;

/** The events a trace of the fault holds, the options they replay under, and how far they go. */
function tracePlan(
  pair: RulesPair,
  steppers: Steppers,
  options: WorldOptions,
  events: readonly (WorldEvent | null)[],
  probe: ProbePosition | undefined,
): { options: WorldOptions; sim: Simulated; reach: FaultReach; lookAhead: boolean } {
  const worldRules = { rules: pair.rules, ...(pair.oldRules ? { oldRules: pair.oldRules } : {}) };
  // Without the liveness phase's look-ahead: it steps engines ahead, and the decision that broke may be among those steps.
  const systemOf = (o: WorldOptions): TransitionSystem<World, WorldEvent> => ({ ...outboxSystem(o, worldRules, steppers), quiescent: undefined, settle: undefined, waitsForTime: undefined, waitOut: undefined });
  const heal = events.indexOf(null);
  // The liveness search's steps past the state it expanded are of one steady answer: the world's answer once faults stop.
  const answered = heal < 0 ? options : healedAs(options, events.slice(heal + 1));
  if (answered !== null) {
    const system = systemOf(answered);
    const whole = probe !== undefined ? throughProbe(system, events, probe) : heal < 0 ? valid(system, events) : breaksNext(system, valid(system, events));
    if (whole !== null) return { options: answered, sim: whole, reach: 'decision', lookAhead: probe !== undefined };
  }
  // The look-ahead's steps do not re-run: the events as a run took them, or up to the state the search expanded.
  const system = systemOf(options);
  const taken = valid(system, events) ?? (heal >= 0 ? valid(system, events.slice(0, heal)) : null);
  if (taken === null) throw new Error('the steps before the broken decision do not re-run');
  return { options, sim: taken, reach: 'look-ahead', lookAhead: false };
}

/** The simulation of `events` when every one is enabled where it is taken and none violates a property or breaks a decision, else null. */
function valid(system: TransitionSystem<World, WorldEvent>, events: readonly (WorldEvent | null)[]): Simulated | null {
  let sim: Simulated;
  try {
    sim = simulateEvents(system, events);
  } catch (err) {
    // A decision broke on the way (listing a state the look-ahead stepped to): not a trace to the state before it.
    if (ruleFaultOf(err) !== null) return null;
    throw err;
  }
  return sim.invalidAt === null && sim.violation === null ? sim : null;
}

/** Whether `test` breaks a decision (a rule set's fault), false when it runs through; any other error is thrown. */
function breaks(test: () => unknown): boolean {
  try {
    test();
  } catch (err) {
    if (ruleFaultOf(err) !== null) return true;
    throw err;
  }
  return false;
}

/**
 * `sim` when a step enabled at its end breaks a decision (the liveness
 * search's steps past the state it expanded end at the state whose steps
 * broke one), else null.
 */
function breaksNext(system: TransitionSystem<World, WorldEvent>, sim: Simulated | null): Simulated | null {
  if (sim === null) return null;
  const end = sim.steps.at(-1)?.state ?? sim.initial;
  let listed: ReturnType<typeof system.choices> = [];
  // Listing the state's steps may itself ask a decision.
  if (breaks(() => (listed = system.choices(end)))) return sim;
  for (const g of listed) for (const e of g.events) if (breaks(() => system.step(end, e))) return sim;
  return null;
}

/**
 * `options` with the broker's answer once faults stop set to the one the
 * steps `after` the switch get (unchanged when they get none); null when
 * they get two different answers (no one run gives them).
 */
function healedAs(options: WorldOptions, after: readonly (WorldEvent | null)[]): WorldOptions | null {
  let answer: WorldOptions['healAnswer'] | null = null;
  for (const e of after) {
    if (e === null || e.kind !== 'answer') continue;
    if (answer !== null && answer !== e.answer) return null;
    answer = e.answer;
  }
  return answer === null || answer === options.healAnswer ? options : { ...options, healAnswer: answer };
}

/**
 * The simulation of `events`, then the quiet test's steps before the broken
 * one: the switch to the liveness phase (unless the events made it), the
 * clock moved on by one long wait that lands where the test looked, and the
 * test's steps. Null when the world has no step that moves the clock so far
 * at once, or when re-running does not reach the broken decision.
 */
function throughProbe(system: TransitionSystem<World, WorldEvent>, events: readonly (WorldEvent | null)[], probe: ProbePosition): Simulated | null {
  const broken = probe.events.at(-1);
  if (broken === undefined) return null;
  const out: (WorldEvent | null)[] = [...events];
  if (!out.includes(null)) out.push(null);
  if (probe.later > 0) {
    const start = valid(system, out);
    if (start === null) return null;
    const now = start.steps.at(-1)?.state ?? start.initial;
    const to = nowOf(now) + probe.later;
    // A tick at a time would be a thousand steps, past the liveness phase's own bound: only one step that moves the clock so far.
    let wait: WorldEvent | undefined;
    if (breaks(() => (wait = clockStepTo(system.choices(now).flatMap((g) => g.events), to))) || wait === undefined) return null;
    out.push(wait);
  }
  out.push(...probe.events.slice(0, -1));
  const sim = valid(system, out);
  if (sim === null) return null;
  return breaks(() => system.step(sim.steps.at(-1)?.state ?? sim.initial, broken)) ? sim : null;
}
