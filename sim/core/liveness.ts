/**
 * The liveness phase's two questions, asked the same way by random runs,
 * re-runs of recorded events and re-runs under other rules: is the system
 * quiet, and once it is, does an `eventually` property fail?
 */
import type { ChoiceGroup, TransitionSystem, Violation } from './system.ts';

/**
 * Quiet: no event is enabled, or the system says nothing more will happen.
 * `choices` are the state's choices when the caller has them already.
 */
export function isQuiet<S, E>(system: TransitionSystem<S, E>, state: S, choices: readonly ChoiceGroup<E>[] = system.choices(state)): boolean {
  return choices.every((g) => g.events.length === 0) || (system.quiescent?.(state) ?? false);
}

/**
 * The verdict of a quiet state: the first `eventually` property violated,
 * null when none is, or 'waiting' when one would be but the state waits for
 * a time its world never reaches (`waitsForTime`): a world whose time
 * stands still cannot say that a body waiting out a back-off is stuck. Asked
 * only of a violation, so a world that waits for nothing pays nothing.
 */
export function quietVerdict<S, E>(system: TransitionSystem<S, E>, state: S): Violation | null | 'waiting' {
  for (const p of system.properties) {
    if (p.kind !== 'eventually') continue;
    const v = p.check(state);
    if (v !== null) return system.waitsForTime?.(state) === true ? 'waiting' : v;
  }
  return null;
}

/**
 * The verdict at the liveness phase's bound of steps: 'busy' (the phase's
 * own violation) unless the passes under way change nothing and end in a
 * quiet state (`settle`), which is then judged as any quiet state. Before,
 * three engines scanning files they did not select (a back-off) were never
 * all idle at once in 400 steps, and the run was reported retrying forever.
 */
export function boundVerdict<S, E>(system: TransitionSystem<S, E>, state: S): Violation | null | 'waiting' | 'busy' {
  const settled = system.settle?.(state) ?? null;
  if (settled !== null && isQuiet(system, settled)) return quietVerdict(system, settled);
  // Not quiet at the bound: waited out (passes under way ended, a long back-off waited for), clean when that
  // ends quiet with every `eventually` property holding; busy otherwise, as before (docs/properties.md,
  // 'quiet-after-healing (liveness bound)').
  const waited = system.waitOut?.(settled ?? state) ?? null;
  return waited !== null && quietVerdict(system, waited) === null ? null : 'busy';
}

/** The first `eventually` property violated in a quiet state, or null (also when it is not judged: `quietVerdict`'s 'waiting'). */
export function eventuallyViolated<S, E>(system: TransitionSystem<S, E>, state: S): Violation | null {
  const v = quietVerdict(system, state);
  return v === 'waiting' ? null : v;
}
