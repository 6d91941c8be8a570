/**
 * The trace of a run up to a broken decision: the events taken before the
 * step at which a rule set's decision threw or broke its contract, recorded
 * as an ordinary trace (no violation), so that `replay` re-runs the world to
 * the very state in which the decision was called.
 */
import { simulateEvents } from '../core/simulate.ts';
import { writeTrace } from '../trace-format.ts';
import { outboxSystem, type Steppers } from './outbox-system.ts';
import type { WorldOptions } from './options.ts';
import { outboxHeader, traceSteps, type RulesPair } from './record-trace.ts';
import type { WorldEvent } from './world.ts';

/** Writes the steps `events` (taken without fault before) as a trace under `dir`. */
export function writeStepsBefore(dir: string, pair: RulesPair, steppers: Steppers, seed: number, options: WorldOptions, events: readonly (WorldEvent | null)[], origin: string): { path: string; steps: number } {
  const worldRules = { rules: pair.rules, ...(pair.oldRules ? { oldRules: pair.oldRules } : {}) };
  // Without the quiescence probe: it steps engines ahead, and the decision that broke may be among those steps.
  const system = { ...outboxSystem(options, worldRules, steppers), quiescent: undefined };
  const sim = simulateEvents(system, events);
  const steps = traceSteps(sim.initial, sim.steps);
  const { path } = writeTrace(dir, outboxHeader(pair, seed, options, null, origin, steps.length, null), steps);
  return { path, steps: steps.length };
}
