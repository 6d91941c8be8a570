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

/** The first `eventually` property violated in a quiet state, or null. */
export function eventuallyViolated<S, E>(system: TransitionSystem<S, E>, state: S): Violation | null {
  for (const p of system.properties) {
    if (p.kind !== 'eventually') continue;
    const v = p.check(state);
    if (v !== null) return v;
  }
  return null;
}
