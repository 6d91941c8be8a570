/**
 * Re-running a recorded world under other rules: the recorded outside events
 * (faults, broker answers, producer and operator actions, and "engine N takes
 * its next step") are taken again, while the system, under its own rules,
 * decides what each engine step does. Used by `replay --under`, `recheck` and
 * `diff`. Reports where the run first departs from the recording, and
 * whether a property is still violated.
 */
import { sameCanonical } from './canonical.ts';
import { boundVerdict, eventuallyViolated, isQuiet } from './liveness.ts';
import type { TransitionSystem, Violation } from './system.ts';
import { seededChooser } from './chooser.ts';
import { busyAfterHealing } from './random.ts';

/** What a re-run found. */
export interface RerunResult {
  /** 1-based recorded step at which the run first differs from the recording, or null. */
  departedAt: number | null;
  /** Recorded events that were not enabled under these rules (skipped). */
  skipped: number;
  /** Steps taken, recorded ones plus the liveness phase after them. */
  steps: number;
  violation: (Violation & { step: number }) | null;
}

/**
 * Re-runs `recorded` events (null = faults stop). `matchKey` says when an
 * enabled event is "the same" outside action as a recorded one (for the
 * outbox: an engine's next step, whatever its lifecycle state). `recordedStates`
 * (the state after each recorded step) finds the departure. After the
 * recording, a liveness phase of at most `healStepsMax` steps, chosen by a
 * chooser seeded with `seed`, lets the rules finish what they started.
 */
export function rerun<S, E>(
  system: TransitionSystem<S, E>,
  recorded: readonly (E | null)[],
  recordedStates: readonly unknown[] | null,
  matchKey: (e: E) => string,
  seed: number,
  healStepsMax: number,
): RerunResult {
  let state = system.initial();
  let departedAt: number | null = null;
  let skipped = 0;
  let steps = 0;
  let healed = false;
  const always = system.properties.filter((p) => p.kind === 'always');
  const checkAlways = (): (Violation & { step: number }) | null => {
    for (const p of always) {
      const v = p.check(state);
      if (v !== null) return { ...v, step: steps };
    }
    return null;
  };
  for (let i = 0; i < recorded.length; i++) {
    const want = recorded[i];
    if (want === null) {
      if (!healed && system.heal) state = system.heal(state);
      healed = true;
      steps++;
    } else {
      const key = matchKey(want);
      const event = system.choices(state).flatMap((g) => g.events).find((e) => matchKey(e) === key);
      if (event === undefined) {
        skipped++;
        departedAt ??= i + 1;
        continue;
      }
      state = system.step(state, event).state;
      steps++;
    }
    if (departedAt === null && recordedStates !== null && !sameCanonical(state, recordedStates[i])) departedAt = i + 1;
    const v = checkAlways();
    if (v !== null) return { departedAt, skipped, steps, violation: v };
  }
  if (system.heal === undefined) return { departedAt, skipped, steps, violation: null };
  if (!healed) state = system.heal(state);
  const chooser = seededChooser(seed);
  for (let k = 0; ; k++) {
    const choices = system.choices(state);
    if (isQuiet(system, state, choices)) {
      const v = eventuallyViolated(system, state);
      return { departedAt, skipped, steps, violation: v !== null ? { ...v, step: steps } : null };
    }
    if (k === healStepsMax) {
      const v = boundVerdict(system, state);
      if (v === 'busy') return { departedAt, skipped, steps, violation: { ...busyAfterHealing(healStepsMax), step: steps } };
      return { departedAt, skipped, steps, violation: v === 'waiting' || v === null ? null : { ...v, step: steps } };
    }
    const groups = choices.filter((g) => g.events.length > 0);
    const g = groups[chooser.int('schedule', groups.length)];
    state = system.step(state, g.events[chooser.int(g.group, g.events.length)]).state;
    steps++;
    const v = checkAlways();
    if (v !== null) return { departedAt, skipped, steps, violation: v };
  }
}
