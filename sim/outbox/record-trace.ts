/**
 * Turning an outbox counterexample (options + events) into a written trace:
 * shrink it, re-run the kept events to record every state change, and write
 * the trace file.
 */
import type { RuleSet } from '../../model/rules.ts';
import { shrink } from '../core/shrink.ts';
import { simulateEvents } from '../core/simulate.ts';
import { checkingOnly, type Violation } from '../core/system.ts';
import { stateChange, TOOL_VERSION, TRACE_FORMAT_NAME, TRACE_FORMAT_VERSION, writeTrace, type Trace, type TraceHeader, type TraceRules, type TraceStep } from '../trace-format.ts';
import { outboxSystem, type Steppers } from './outbox-system.ts';
import { healStepsOf, type WorldOptions } from './options.ts';
import { outboxReducer } from './shrink.ts';
import type { World, WorldEvent } from './world.ts';

/** The rule sets of a run, with where they came from. */
export interface RulesPair {
  rules: RuleSet;
  rulesOrigin: TraceRules;
  oldRules: RuleSet | null;
  oldRulesOrigin: TraceRules | null;
}

/** A written counterexample. */
export interface WrittenTrace {
  trace: Trace;
  path: string;
  stepsBefore: number;
  stepsAfter: number;
  violation: Violation & { step: number };
  shrinkBoundHit: boolean;
}

/** Records the steps of an event list as trace lines. */
export function traceSteps(initial: World, steps: readonly { label: string; group: string; index: number; event: WorldEvent | null; tags: readonly string[]; phase: 'fault' | 'heal'; state: World }[]): TraceStep[] {
  let before: World = initial;
  return steps.map((s, i) => {
    const change = stateChange(before, s.state);
    before = s.state;
    return { n: i + 1, label: s.label, group: s.group, choice: s.index, phase: s.phase, event: s.event, tags: s.tags, change };
  });
}

/**
 * The options as a header records them: settings that give nothing left
 * out, as the swarm leaves them out. explore's options carry every setting
 * undefined (one hidden class), which JSON wrote as `"settings":{}`, so the
 * same counterexample from explore and from check's small world or compare
 * had headers, and trace ids, that differed by that alone.
 */
function headerOptions(options: WorldOptions): WorldOptions {
  const s = options.settings;
  if (s === undefined || Object.values(s).some((v) => v !== undefined)) return options;
  const { settings: _none, ...rest } = options;
  return rest;
}

/** The header of an outbox trace. */
export function outboxHeader(pair: RulesPair, seed: number, options: WorldOptions, violation: (Violation & { step: number }) | null, origin: string, stepCount: number, stepsBeforeShrink: number | null): TraceHeader {
  return {
    format: TRACE_FORMAT_NAME,
    version: TRACE_FORMAT_VERSION,
    tool: TOOL_VERSION,
    model: 'outbox',
    rules: pair.rulesOrigin,
    oldRules: pair.oldRulesOrigin,
    seed,
    options: headerOptions(options),
    violation,
    stepsBeforeShrink,
    origin,
    stepCount,
  };
}

/**
 * The shrinker's bounds: at most `reruns` re-runs, and about `steps` steps
 * re-run in all. A counterexample of deep cycles is hundreds of steps long
 * in a world whose budgets were raised for its rounds (every step lists
 * corruptions and operator actions), and 4,000 re-runs of it took a check
 * 55 s to shrink 799 steps to 780 (a rule acting past 95 requeues); a short
 * trace keeps the whole re-run bound. A bound hit is reported with the trace.
 */
export const SHRINK_BOUNDS = { reruns: 4000, steps: 300_000, rerunsMin: 100 } as const;

/** The re-runs the shrinker may take on a counterexample of `steps` steps ({@link SHRINK_BOUNDS}). */
export function shrinkReruns(steps: number): number {
  return Math.min(SHRINK_BOUNDS.reruns, Math.max(SHRINK_BOUNDS.rerunsMin, Math.floor(SHRINK_BOUNDS.steps / Math.max(1, steps))));
}

/** Shrinks a counterexample (when asked) and writes it as a trace under `dir`. */
export function writeCounterexample(
  dir: string,
  pair: RulesPair,
  steppers: Steppers,
  seed: number,
  options: WorldOptions,
  events: (WorldEvent | null)[],
  property: string,
  origin: string,
  healStepsMax: number,
  doShrink = true,
): WrittenTrace {
  const worldRules = { rules: pair.rules, ...(pair.oldRules ? { oldRules: pair.oldRules } : {}) };
  const systemFor = (o: WorldOptions) => outboxSystem(o, worldRules, steppers);
  const start = { options, system: systemFor(options), events };
  // A system still busy after healing is only busy at the full bound: it is written as found.
  const shrinkable = doShrink && property !== 'quiet-after-healing';
  const shrunk = shrinkable ? shrink(start, property, outboxReducer(systemFor), shrinkReruns(events.length)) : { scenario: start, stepsBefore: events.length, stepsAfter: events.length, boundHit: false, reruns: 0 };
  const sc = shrunk.scenario;
  // Recorded to this property's violation: its path may pass another's first (explore --continue).
  // The liveness bound of the world written (options.ts, `healStepsOf`), as its replay takes it.
  const sim = simulateEvents(checkingOnly(sc.system, property), sc.events, { healStepsMax: healStepsOf(healStepsMax, sc.options) });
  if (sim.violation === null) throw new Error(`internal: the counterexample for ${property} no longer violates when re-run`);
  const steps = traceSteps(sim.initial, sim.steps);
  const header = outboxHeader(pair, seed, sc.options, sim.violation, origin, steps.length, shrinkable ? shrunk.stepsBefore : null);
  const { trace, path } = writeTrace(dir, header, steps);
  return { trace, path, stepsBefore: shrunk.stepsBefore, stepsAfter: steps.length, violation: sim.violation, shrinkBoundHit: shrunk.boundHit };
}
