/**
 * A run whose every choice is given: a schedule is a list of choice
 * indices, and at each step the index (modulo the number of enabled events)
 * picks among the events enabled there, listed group by group as the system
 * offers them (groups and events of weight 0, which a random run never
 * draws, left out). A property-based test can thus generate the schedule
 * itself, and its shrinker shrinks the schedule: fewer steps, and smaller
 * indices (the first event enabled). The `always` properties are checked
 * after every step; the run ends at the first violation or with the
 * schedule. (The seeded runs of `check` draw choices from per-subsystem
 * streams instead, and its own shrinker shrinks what they found.)
 */
import type { TransitionSystem, Violation } from './system.ts';

/** What a scheduled run did. */
export interface ScheduleRun<S, E> {
  /** The first `always` property violated, at which step (1-based); null when none was. */
  violation: (Violation & { step: number }) | null;
  /** The events taken, in order. */
  events: E[];
  final: S;
}

/** The events a random run could draw in `state`, in the order a schedule's index counts them. */
export function enabledEvents<S, E>(system: TransitionSystem<S, E>, state: S): E[] {
  const out: E[] = [];
  for (const g of system.choices(state)) {
    if (!(g.weight > 0)) continue;
    g.events.forEach((e, i) => {
      if (g.eventWeights === undefined || g.eventWeights[i] > 0) out.push(e);
    });
  }
  return out;
}

/** Runs `system` along `schedule`; stops early when nothing is enabled. */
export function runSchedule<S, E>(system: TransitionSystem<S, E>, schedule: readonly number[]): ScheduleRun<S, E> {
  const always = system.properties.filter((p) => p.kind === 'always');
  let state = system.initial();
  const events: E[] = [];
  for (const choice of schedule) {
    const enabled = enabledEvents(system, state);
    if (enabled.length === 0) break;
    const event = enabled[choice % enabled.length];
    state = system.step(state, event).state;
    events.push(event);
    for (const p of always) {
      const v = p.check(state);
      if (v !== null) return { violation: { ...v, step: events.length }, events, final: state };
    }
  }
  return { violation: null, events, final: state };
}
