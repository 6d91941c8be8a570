/**
 * Scripted runs of any {@link TransitionSystem}: the controlled conditions and the
 * dispatch scenarios are data (a list of events), played through the system's
 * own `choices` and `step`. An event is applied only if the system enables it
 * where it is applied, so a script cannot reach a state the simulator and the
 * explorer could not (scenarios belong in data, not in the engine).
 */
import { locate } from '../core/simulate.ts';
import type { TransitionSystem } from '../core/system.ts';

/** One applied step. */
export interface ScriptStep {
  label: string;
  tags: readonly string[];
}

/** A scripted run so far. */
export interface ScriptRun<S> {
  state: S;
  steps: ScriptStep[];
}

/** Starts a run at the system's initial state. */
export function startRun<S, E>(system: TransitionSystem<S, E>): ScriptRun<S> {
  return { state: system.initial(), steps: [] };
}

/** Applies `event`, which must be among the events the system enables now. */
export function applyEnabled<S, E>(system: TransitionSystem<S, E>, run: ScriptRun<S>, event: E): ScriptRun<S> {
  if (locate(system, run.state, event) === null) throw new Error(`scripted event is not enabled: ${system.label(event)}`);
  const out = system.step(run.state, event);
  return { state: out.state, steps: [...run.steps, { label: system.label(event), tags: out.tags }] };
}

/**
 * Runs the events of the named groups until none is enabled, taking them in
 * rotation (the n-th step takes the enabled event at index n modulo their
 * count) so that concurrent actors interleave. Bounded: throws at `stepsMax`.
 */
export function settle<S, E>(system: TransitionSystem<S, E>, run: ScriptRun<S>, groups: readonly string[], stepsMax = 1_000): ScriptRun<S> {
  let r = run;
  for (let turn = 0; ; turn++) {
    const events = system
      .choices(r.state)
      .filter((g) => groups.includes(g.group))
      .flatMap((g) => g.events);
    if (events.length === 0) return r;
    if (turn >= stepsMax) throw new Error(`still busy after ${stepsMax} steps of ${groups.join(', ')}`);
    r = applyEnabled(system, r, events[turn % events.length]);
  }
}

/** How often each tag occurred in the steps from `from` on. */
export function tagCounts(run: ScriptRun<unknown>, from = 0): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of run.steps.slice(from)) for (const t of s.tags) counts[t] = (counts[t] ?? 0) + 1;
  return counts;
}

/** Each `always` property the run's state violates, as one line: `property (layer): detail`. */
export function alwaysViolations<S, E>(system: TransitionSystem<S, E>, run: ScriptRun<S>): string[] {
  return system.properties
    .filter((p) => p.kind === 'always')
    .map((p) => p.check(run.state))
    .filter((v) => v !== null)
    .map((v) => `${v.property} (${v.layer}): ${v.detail}`);
}
