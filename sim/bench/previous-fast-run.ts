/**
 * The seed runner `check` ran before issue 23's work on the seed loop, kept
 * as it was, for the bench only: `check-speed.ts` times it beside today's
 * runner (sim/core/fast-run.ts) on the same seeds in one process, so the
 * ratio it reports is measured side by side, not against an old figure.
 * Not used by `check`.
 */
import { seededChooser } from '../core/chooser.ts';
import { eventuallyViolated } from '../core/liveness.ts';
import { busyAfterHealing, type RunBounds, type RunResult } from '../core/random.ts';
import type { ChoiceGroup, Property, TransitionSystem, Violation } from '../core/system.ts';
import { POSITION_RUN, watchAt, watchStep } from '../watch.ts';

/** What a fast run reports: a {@link RunResult} without the trace (steps counted, not recorded). */
export interface PreviousRunResult {
  seed: number;
  steps: number;
  violation: (Violation & { step: number }) | null;
  tags: Map<string, number>;
  reached: string[];
  end: RunResult<unknown, unknown>['end'];
}

/** A property with the fields it reads, or null when it does not say (then it is checked after every step). */
interface Watched<S> {
  property: Property<S>;
  reads: readonly (keyof S & string)[] | null;
}

const watchedOf = <S>(properties: readonly Property<S>[], kind: Property<S>['kind']): Watched<S>[] =>
  properties.filter((p) => p.kind === kind).map((property) => ({ property, reads: property.reads ?? null }));

/** Whether a field `p` reads differs between two states (always true when `p` does not say what it reads). */
function touched<S>(w: Watched<S>, before: S, after: S): boolean {
  const reads = w.reads;
  if (reads === null) return true;
  for (let i = 0; i < reads.length; i++) if (before[reads[i]] !== after[reads[i]]) return true;
  return false;
}

/** Runs one seeded world as {@link runSeed} does, keeping only the counts. */
export function runSeedPrevious<S, E>(system: TransitionSystem<S, E>, seed: number, bounds: RunBounds): PreviousRunResult {
  const chooser = seededChooser(seed);
  let state = system.initial();
  let steps = 0;
  const tags = new Map<string, number>();
  const reached: string[] = [];
  const always = watchedOf(system.properties, 'always');
  const sometimes = watchedOf(system.properties, 'sometimes');
  const done = new Array<boolean>(sometimes.length).fill(false);
  // Reused for every step's group weights: nothing allocated per step here.
  const groups: ChoiceGroup<E>[] = [];
  /** The groups with an event and a weight (their index among the state's groups, or in `groups`), and their weights. */
  const picks: number[] = [];
  const weights: number[] = [];
  const lazy = system.groups;

  // The states at which the `always` and the `sometimes` properties were last checked: runSeed checks
  // `always` ones after each step (not on the initial state) and `sometimes` ones also on the initial
  // state, neither after healing; a property is checked again when what it reads differs from there.
  let checked: S | null = null;
  let observed: S = state;
  const observe = (before: S | null): void => {
    for (let i = 0; i < sometimes.length; i++) {
      if (done[i]) continue;
      const w = sometimes[i];
      if (before !== null && !touched(w, before, state)) continue;
      if (w.property.check(state) !== null) {
        done[i] = true;
        reached.push(w.property.name);
      }
    }
  };
  const result = (end: PreviousRunResult['end'], violation: PreviousRunResult['violation']): PreviousRunResult => ({ seed, steps, violation, tags, reached: reached.sort(), end });

  watchAt(POSITION_RUN, seed, 1);
  observe(null);
  let phase: 'fault' | 'heal' = 'fault';
  let budget = bounds.faultStepsMax;
  for (;;) {
    watchStep(steps + 1);
    groups.length = 0;
    picks.length = 0;
    weights.length = 0;
    let empty = true;
    if (lazy !== undefined) {
      // Which groups have an event, without listing them; the drawn group's events are listed below.
      const n = lazy.count(state);
      for (let i = 0; i < n; i++) {
        if (!lazy.hasEvents(state, i)) continue;
        empty = false;
        const weight = lazy.weight(state, i);
        if (weight > 0) {
          picks.push(i);
          weights.push(weight);
        }
      }
    } else {
      const choices = system.choices(state);
      for (let i = 0; i < choices.length; i++) {
        const g = choices[i];
        if (g.events.length === 0) continue;
        empty = false;
        if (g.weight > 0) {
          groups.push(g);
          picks.push(groups.length - 1);
          weights.push(g.weight);
        }
      }
    }
    if (phase === 'heal' && (empty || (system.quiescent?.(state) ?? false))) {
      const v = eventuallyViolated(system, state);
      return v !== null ? result('violation', { ...v, step: steps }) : result('quiet', null);
    }
    if (picks.length === 0 || budget === 0) {
      if (phase === 'fault' && system.heal !== undefined) {
        phase = 'heal';
        budget = bounds.healStepsMax;
        state = system.heal(state);
        steps++;
        continue;
      }
      if (phase === 'heal') return result('heal-bound', { ...busyAfterHealing(bounds.healStepsMax), step: steps });
      return result(picks.length === 0 ? 'no-events' : 'fault-bound-no-heal', null);
    }
    const drawn = picks[chooser.weighted('schedule', weights)];
    const g = lazy !== undefined ? lazy.choice(state, drawn) : groups[drawn];
    const index = g.eventWeights !== undefined ? chooser.weighted(g.group, g.eventWeights) : chooser.int(g.group, g.events.length);
    const before = checked;
    const out = system.step(state, g.events[index]);
    state = out.state;
    budget--;
    steps++;
    for (const t of out.tags) tags.set(t, (tags.get(t) ?? 0) + 1);
    for (let i = 0; i < always.length; i++) {
      const w = always[i];
      if (before !== null && !touched(w, before, state)) continue;
      const v = w.property.check(state);
      if (v !== null) return result('violation', { ...v, step: steps });
    }
    observe(observed);
    checked = state;
    observed = state;
  }
}
