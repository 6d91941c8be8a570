/**
 * Shrinking a counterexample until it is 1-minimal: first the system's own
 * domain-aware reductions (drop a body's lifecycle, an engine, lower a limit),
 * then chunks of steps, then single steps, until removing any one remaining
 * step makes the violation disappear or the trace invalid. Candidates are
 * re-run skipping events that are no longer enabled, so a removal also drops
 * the steps that only it enabled; the result is a valid trace. Bounded by a
 * number of re-runs, and says when it hit that bound.
 */
import type { TransitionSystem } from './system.ts';
import { simulateEvents } from './simulate.ts';

/** A candidate counterexample: a system (its options may shrink too) and its events. */
export interface Scenario<S, E, O> {
  options: O;
  system: TransitionSystem<S, E>;
  events: (E | null)[];
}

/** System-specific reductions of a scenario, tried first, most drastic first. */
export type Reducer<S, E, O> = (scenario: Scenario<S, E, O>) => Scenario<S, E, O>[];

/** What shrinking did. */
export interface ShrinkResult<S, E, O> {
  scenario: Scenario<S, E, O>;
  stepsBefore: number;
  stepsAfter: number;
  reruns: number;
  /** True when the re-run bound stopped shrinking before 1-minimality was shown. */
  boundHit: boolean;
}

/** Shrinks `start`, keeping a violation of the same property. */
export function shrink<S, E, O>(
  start: Scenario<S, E, O>,
  property: string,
  reduce: Reducer<S, E, O> = () => [],
  rerunsMax = 20_000,
): ShrinkResult<S, E, O> {
  let reruns = 0;
  let boundHit = false;
  /** The scenario cut right after its violation, or null when it no longer violates. */
  const test = (s: Scenario<S, E, O>): Scenario<S, E, O> | null => {
    if (reruns >= rerunsMax) {
      boundHit = true;
      return null;
    }
    reruns++;
    // Disabled events are skipped, so removing a step also removes what only it enabled.
    const sim = simulateEvents(s.system, s.events, { skipDisabled: true });
    if (sim.violation === null || sim.violation.property !== property) return null;
    return { ...s, events: sim.kept };
  };
  let best = test(start);
  if (best === null) return { scenario: start, stepsBefore: start.events.length, stepsAfter: start.events.length, reruns, boundHit };
  const stepsBefore = start.events.length;

  let progress = true;
  while (progress && !boundHit) {
    progress = false;
    // 1. Domain-aware reductions.
    for (const candidate of reduce(best)) {
      const ok = test(candidate);
      if (ok !== null) {
        best = ok;
        progress = true;
        break;
      }
    }
    if (progress) continue;
    // 2. Chunks, halving, then 3. single steps (chunk size 1): until no removal keeps the violation.
    for (let size = Math.max(1, Math.floor(best.events.length / 2)); size >= 1 && !progress; size = Math.floor(size / 2)) {
      for (let at = best.events.length - size; at >= 0; at -= size) {
        const events = [...best.events.slice(0, at), ...best.events.slice(at + size)];
        const ok = test({ ...best, events });
        if (ok !== null) {
          best = ok;
          progress = true;
          break;
        }
      }
    }
  }
  return { scenario: best, stepsBefore, stepsAfter: best.events.length, reruns, boundHit };
}
