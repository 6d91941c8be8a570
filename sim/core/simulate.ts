/**
 * Re-running a given list of events (from a trace, or a candidate while
 * shrinking) on any {@link TransitionSystem}. Each event must be enabled where it is
 * taken; the first one that is not ends the run as invalid. Properties are
 * checked exactly as a random run checks them.
 */
import { sameCanonical } from './canonical.ts';
import { boundVerdict, eventuallyViolated, isQuiet } from './liveness.ts';
import type { TransitionSystem, Violation } from './system.ts';
import { busyAfterHealing, HEAL_LABEL, type RecordedStep } from './random.ts';

/** One re-run step, with the state it leads to. */
export interface SimulatedStep<S, E> extends RecordedStep<E> {
  state: S;
}

/** The outcome of re-running events. */
export interface Simulation<S, E> {
  initial: S;
  steps: SimulatedStep<S, E>[];
  /** Index of the first event that was not enabled, or null when all were (or were skipped). */
  invalidAt: number | null;
  /** The events actually taken (differs from the input only when skipping disabled ones). */
  kept: (E | null)[];
  violation: (Violation & { step: number }) | null;
}

/** Where an event stands among the enabled ones, or null when it is not enabled. */
export function locate<S, E>(system: TransitionSystem<S, E>, state: S, event: E): { group: string; index: number } | null {
  for (const g of system.choices(state)) {
    const index = g.events.findIndex((e) => sameCanonical(e, event));
    if (index >= 0) return { group: g.group, index };
  }
  return null;
}

/**
 * Re-runs `events` (null marks the switch to the liveness phase). Stops at
 * the first violation, like a random run; `eventually` properties are checked
 * when the events end in a quiet liveness phase.
 */
export function simulateEvents<S, E>(
  system: TransitionSystem<S, E>,
  events: readonly (E | null)[],
  options: { skipDisabled?: boolean; initial?: S; healStepsMax?: number } = {},
): Simulation<S, E> {
  const initial = options.initial ?? system.initial();
  let state = initial;
  const kept: (E | null)[] = [];
  const steps: SimulatedStep<S, E>[] = [];
  let phase: 'fault' | 'heal' = 'fault';
  const always = system.properties.filter((p) => p.kind === 'always');
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event === null) {
      if (phase === 'heal' || system.heal === undefined) {
        if (options.skipDisabled) continue;
        return { initial, steps, invalidAt: i, kept, violation: null };
      }
      kept.push(null);
      phase = 'heal';
      state = system.heal(state);
      steps.push({ label: HEAL_LABEL, group: 'heal', index: 0, event: null, tags: ['heal'], phase, state });
      continue;
    }
    const at = locate(system, state, event);
    if (at === null) {
      if (options.skipDisabled) continue;
      return { initial, steps, invalidAt: i, kept, violation: null };
    }
    kept.push(event);
    const out = system.step(state, event);
    state = out.state;
    steps.push({ label: system.label(event), group: at.group, index: at.index, event, tags: out.tags, phase, state });
    for (const p of always) {
      const v = p.check(state);
      if (v !== null) return { initial, steps, invalidAt: null, kept, violation: { ...v, step: steps.length } };
    }
  }
  if (phase === 'heal') {
    if (isQuiet(system, state)) {
      const v = eventuallyViolated(system, state);
      if (v !== null) return { initial, steps, invalidAt: null, kept, violation: { ...v, step: steps.length } };
    } else if (options.healStepsMax !== undefined && steps.filter((s) => s.phase === 'heal').length > options.healStepsMax) {
      const v = boundVerdict(system, state);
      if (v === 'busy') return { initial, steps, invalidAt: null, kept, violation: { ...busyAfterHealing(options.healStepsMax), step: steps.length } };
      if (v !== null && v !== 'waiting') return { initial, steps, invalidAt: null, kept, violation: { ...v, step: steps.length } };
    }
  }
  return { initial, steps, invalidAt: null, kept, violation: null };
}
