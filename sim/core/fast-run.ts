/**
 * The seed runner `check` uses: one seeded run of any {@link TransitionSystem}, the
 * same run as {@link runSeed} (the reference: same draws from the same
 * streams, same steps, same verdict, same counts) without what only a trace
 * needs. It keeps no step records, labels or states; it checks a property
 * only when a field the property reads (`Property.reads`) is no longer the
 * same object as before the step (states are immutable, so an unchanged
 * field holds what it held, and the property's verdict with it); it counts
 * tags in a map. A run that violates, or throws, is run again by
 * {@link runSeed} to get its events (`check.ts`), as the shrinker re-runs.
 * `fast-run.test.ts` holds the two runners to the same runs.
 */
import { seededChooser } from './chooser.ts';
import { eventuallyViolated } from './liveness.ts';
import { busyAfterHealing, type RunBounds, type RunResult } from './random.ts';
import type { ChoiceGroup, Property, TransitionSystem, Violation } from './system.ts';
import { POSITION_RUN, watchAt, watchStep } from '../watch.ts';

/** What a fast run reports: a {@link RunResult} without the trace (steps counted, not recorded). */
export interface FastRunResult {
  seed: number;
  steps: number;
  violation: (Violation & { step: number }) | null;
  tags: Map<string, number>;
  reached: string[];
  end: RunResult<unknown, unknown>['end'];
}

/** A property and the bits of the fields it reads (see {@link Fields}). */
interface Watched<S> {
  property: Property<S>;
  /** One bit per field it reads, among the fields any property reads (see {@link Fields}); -1 when it does not say. */
  bits: number;
}

/**
 * The fields the properties read, each a bit: a step's changed fields are
 * compared once (not once per property that reads them), and a property is
 * checked when one of its bits changed. Beyond 31 fields every property is
 * checked after every step (still the same verdicts).
 */
interface Fields<S> {
  names: readonly (keyof S & string)[];
  bitOf: Map<string, number>;
}

const FIELD_BITS_MAX = 31;

function fieldsOf<S>(properties: readonly Property<S>[]): Fields<S> {
  const names: (keyof S & string)[] = [];
  for (const p of properties) for (const f of p.reads ?? []) if (!names.includes(f)) names.push(f);
  if (names.length > FIELD_BITS_MAX) return { names: [], bitOf: new Map() };
  return { names, bitOf: new Map(names.map((f, i) => [f, 1 << i])) };
}

function watchedOf<S>(properties: readonly Property<S>[], kind: Property<S>['kind'], fields: Fields<S>): Watched<S>[] {
  return properties
    .filter((p) => p.kind === kind)
    .map((property) => {
      const reads = property.reads;
      if (reads === undefined || fields.names.length === 0) return { property, bits: -1 };
      let bits = 0;
      for (const f of reads) bits |= fields.bitOf.get(f) ?? 0;
      return { property, bits };
    });
}

/** What a run prepares from its property list: the fields they read, and the `always` and `sometimes` ones with their bits. */
interface Prepared<S> {
  properties: readonly Property<S>[];
  fields: Fields<S>;
  always: Watched<S>[];
  sometimes: Watched<S>[];
}

/**
 * The last list prepared: `check` builds a system per seed, with the same
 * properties each time (a new list of the same objects), so it is prepared
 * once per shard, not once per seed (the preparation reads nothing else).
 */
let lastPrepared: Prepared<unknown> | null = null;

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function prepared<S>(properties: readonly Property<S>[]): Prepared<S> {
  const last = lastPrepared as Prepared<S> | null;
  if (last !== null && sameList(last.properties, properties)) return last;
  const fields = fieldsOf(properties);
  const fresh: Prepared<S> = { properties: [...properties], fields, always: watchedOf(properties, 'always', fields), sometimes: watchedOf(properties, 'sometimes', fields) };
  lastPrepared = fresh as Prepared<unknown>;
  return fresh;
}

/** The bits of the fields that differ between two states (states are immutable: an unchanged field is the same object). */
function changedBits<S>(fields: Fields<S>, before: S, after: S): number {
  const names = fields.names;
  let bits = 0;
  for (let i = 0; i < names.length; i++) if (before[names[i]] !== after[names[i]]) bits |= 1 << i;
  return bits;
}

/** Runs one seeded world as {@link runSeed} does, keeping only the counts. */
export function runSeedFast<S, E>(system: TransitionSystem<S, E>, seed: number, bounds: RunBounds): FastRunResult {
  const chooser = seededChooser(seed);
  let state = system.initial();
  let steps = 0;
  const tags = new Map<string, number>();
  const reached: string[] = [];
  const { fields, always, sometimes } = prepared(system.properties);
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
  /** `changed`: the bits of the fields changed since the state last observed; -1 for the initial state. */
  const observe = (changed: number): void => {
    for (let i = 0; i < sometimes.length; i++) {
      if (done[i]) continue;
      const w = sometimes[i];
      if ((changed & w.bits) === 0) continue;
      if (w.property.check(state) !== null) {
        done[i] = true;
        reached.push(w.property.name);
      }
    }
  };
  const result = (end: FastRunResult['end'], violation: FastRunResult['violation']): FastRunResult => ({ seed, steps, violation, tags, reached: reached.sort(), end });

  watchAt(POSITION_RUN, seed, 1);
  observe(-1);
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
      // A group without weight is never drawn: whether it has an event matters only in the liveness
      // phase, and only when no drawable group has one (then the run may be quiet), so it is asked last.
      const n = lazy.count(state);
      let weightless = false;
      for (let i = 0; i < n; i++) {
        const weight = lazy.weight(state, i);
        if (!(weight > 0)) {
          weightless = true;
          continue;
        }
        if (!lazy.hasEvents(state, i)) continue;
        empty = false;
        picks.push(i);
        weights.push(weight);
      }
      if (empty && weightless && phase === 'heal') {
        for (let i = 0; i < n && empty; i++) if (!(lazy.weight(state, i) > 0) && lazy.hasEvents(state, i)) empty = false;
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
    const first = checked === null;
    const out = system.step(state, g.events[index]);
    state = out.state;
    budget--;
    steps++;
    const stepTags = out.tags;
    for (let i = 0; i < stepTags.length; i++) tags.set(stepTags[i], (tags.get(stepTags[i]) ?? 0) + 1);
    const changed = changedBits(fields, observed, state);
    for (let i = 0; i < always.length; i++) {
      const w = always[i];
      if (!first && (changed & w.bits) === 0) continue;
      const v = w.property.check(state);
      if (v !== null) return result('violation', { ...v, step: steps });
    }
    observe(changed);
    checked = state;
    observed = state;
  }
}
