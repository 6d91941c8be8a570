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
import { seededChooser, type Chooser } from './chooser.ts';
import { boundVerdict, quietVerdict } from './liveness.ts';
import { busyAfterHealing, type RunBounds, type RunResult } from './random.ts';
import type { ChoiceGroup, FieldBits, Property, StepResult, TransitionSystem, Violation } from './system.ts';
import { POSITION_RUN, watchAt, watchStep } from '../watch.ts';

/**
 * A run's states and events, as {@link runSeed} keeps them with `record`:
 * the initial state and the state after each step (the end of faults, `heal`,
 * included), and each step's event (null for the end of faults).
 */
export interface Kept<S, E> {
  states: S[];
  events: (E | null)[];
}

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
 * checked when one of its bits changed. The system's own bits when it has
 * them (`fieldBits`: its fields compared written out, where a read of a
 * field by its name from a list is a slow, generic one); else a bit per field
 * the properties read, in their order. Beyond 31 fields, or a field without
 * a bit, the property is checked after every step (still the same verdicts).
 */
interface Fields<S> {
  names: readonly (keyof S & string)[];
  bitOf: Map<string, number>;
  /** The system's bits, or null (then `names` are compared one by one). */
  system: FieldBits<S> | null;
}

const FIELD_BITS_MAX = 31;

function fieldsOf<S>(properties: readonly Property<S>[], system: FieldBits<S> | null): Fields<S> {
  const names: (keyof S & string)[] = [];
  for (const p of properties) for (const f of p.reads ?? []) if (!names.includes(f)) names.push(f);
  if (system !== null) return { names, bitOf: new Map(names.map((f) => [f, system.bitOf(f)])), system };
  if (names.length > FIELD_BITS_MAX) return { names: [], bitOf: new Map(), system: null };
  return { names, bitOf: new Map(names.map((f, i) => [f, 1 << i])), system: null };
}

function watchedOf<S>(properties: readonly Property<S>[], kind: Property<S>['kind'], fields: Fields<S>): Watched<S>[] {
  return properties
    .filter((p) => p.kind === kind)
    .map((property) => {
      const reads = property.reads;
      if (reads === undefined || fields.names.length === 0) return { property, bits: -1 };
      let bits = 0;
      for (const f of reads) {
        const bit = fields.bitOf.get(f) ?? 0;
        // A field without a bit (the system's bits do not cover it): checked after every step.
        if (bit === 0) return { property, bits: -1 };
        bits |= bit;
      }
      return { property, bits };
    });
}

/** What a run prepares from its property list: the fields they read, and the `always` and `sometimes` ones with their bits. */
interface Prepared<S> {
  properties: readonly Property<S>[];
  fieldBits: FieldBits<S> | null;
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

function prepared<S>(properties: readonly Property<S>[], fieldBits: FieldBits<S> | null): Prepared<S> {
  const last = lastPrepared as Prepared<S> | null;
  if (last !== null && last.fieldBits === fieldBits && sameList(last.properties, properties)) return last;
  const fields = fieldsOf(properties, fieldBits);
  const fresh: Prepared<S> = { properties: [...properties], fieldBits, fields, always: watchedOf(properties, 'always', fields), sometimes: watchedOf(properties, 'sometimes', fields) };
  lastPrepared = fresh as Prepared<unknown>;
  return fresh;
}

/** The bits of the fields that differ between two states (states are immutable: an unchanged field is the same object). */
function changedBits<S>(fields: Fields<S>, before: S, after: S): number {
  if (fields.system !== null) return fields.system.changed(before, after);
  const names = fields.names;
  let bits = 0;
  for (let i = 0; i < names.length; i++) if (before[names[i]] !== after[names[i]]) bits |= 1 << i;
  return bits;
}

/**
 * One seeded run in progress: what its steps share, in one object of one
 * hidden class. The run's loop was one function of some 500 lines of
 * bytecode (listing, drawing, stepping, counting, checking) that V8 compiled
 * whole, then again on stack replacement (a run of hundreds of steps is
 * still in the slow version when the fast one is ready), then again after
 * each deoptimisation; as {@link advance} (one step) and its helpers, each
 * part is called per step and optimised once, and the loop left in
 * {@link runSeedFast} is a line.
 */
class FastRun<S, E> {
  readonly chooser: Chooser;
  state: S;
  steps = 0;
  readonly tags = new Map<string, number>();
  readonly reached: string[] = [];
  readonly prep: Prepared<S>;
  readonly done: boolean[];
  // Reused for every step's group weights: nothing allocated per step here.
  readonly groups: ChoiceGroup<E>[] = [];
  /** The groups with an event and a weight (their index among the state's groups, or in `groups`), and their weights. */
  readonly picks: number[] = [];
  readonly weights: number[] = [];
  /** How many of `picks` and `weights` are this step's (the arrays are reused, never shortened). */
  count = 0;
  // The states at which the `always` and the `sometimes` properties were last checked: runSeed checks
  // `always` ones after each step (not on the initial state) and `sometimes` ones also on the initial
  // state, neither after healing; a property is checked again when what it reads differs from there.
  checked: S | null = null;
  observed: S;
  phase: 'fault' | 'heal' = 'fault';
  budget: number;

  constructor(
    readonly system: TransitionSystem<S, E>,
    readonly seed: number,
    readonly bounds: RunBounds,
    /** The run's states and events, kept as {@link runSeed} keeps them (null: not kept, as `check` runs its seeds). */
    readonly kept: Kept<S, E> | null = null,
    /** The state the run starts from, as {@link runSeed}'s `initial` (deep cycles heal a world from where its rounds left it). */
    initial: S = system.initial(),
  ) {
    this.chooser = seededChooser(seed);
    this.state = initial;
    this.prep = prepared(system.properties, system.fieldBits ?? null);
    this.done = new Array<boolean>(this.prep.sometimes.length).fill(false);
    this.observed = this.state;
    this.budget = bounds.faultStepsMax;
    kept?.states.push(this.state);
  }
}

/** Checks the `sometimes` properties not yet reached whose fields changed (`changed`: their bits since the state last observed; -1 for the initial state). */
function observe<S, E>(r: FastRun<S, E>, changed: number): void {
  const sometimes = r.prep.sometimes;
  for (let i = 0; i < sometimes.length; i++) {
    if (r.done[i]) continue;
    const w = sometimes[i];
    if ((changed & w.bits) === 0) continue;
    if (w.property.check(r.state) !== null) {
      r.done[i] = true;
      r.reached.push(w.property.name);
    }
  }
}

function result<S, E>(r: FastRun<S, E>, end: FastRunResult['end'], violation: FastRunResult['violation']): FastRunResult {
  return { seed: r.seed, steps: r.steps, violation, tags: r.tags, reached: r.reached.sort(), end };
}

/** Fills `picks` and `weights` with the state's drawable groups (`count` of them); whether no group has an event (drawable or not). */
function listDrawable<S, E>(r: FastRun<S, E>): boolean {
  const { groups, picks, weights, state } = r;
  const lazy = r.system.groups;
  if (lazy?.drawable !== undefined) {
    // One call for all groups: which have an event and their weights, without a call per group and question.
    const n = lazy.drawable(state, picks, weights);
    r.count = n > 0 ? n : 0;
    return n === -1;
  }
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
    if (empty && weightless && r.phase === 'heal') {
      for (let i = 0; i < n && empty; i++) if (!(lazy.weight(state, i) > 0) && lazy.hasEvents(state, i)) empty = false;
    }
  } else {
    const choices = r.system.choices(state);
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
  r.count = picks.length;
  return empty;
}

/** Draws a group and one of its events, and takes that step. */
function takeStep<S, E>(r: FastRun<S, E>): StepResult<S> {
  const lazy = r.system.groups;
  const drawn = r.picks[r.chooser.weighted('schedule', r.weights, r.count)];
  const g = lazy !== undefined ? lazy.choice(r.state, drawn) : r.groups[drawn];
  const index = g.eventWeights !== undefined ? r.chooser.weighted(g.group, g.eventWeights) : r.chooser.int(g.group, g.events.length);
  const event = g.events[index];
  const out = r.system.step(r.state, event);
  if (r.kept !== null) keep(r.kept, event, out.state);
  return out;
}

/** Keeps a step's event (null for the end of faults) and the state after it. */
function keep<S, E>(kept: Kept<S, E>, event: E | null, state: S): void {
  kept.events.push(event);
  kept.states.push(state);
}

/** Counts a step's tags. */
function countTags(tags: Map<string, number>, stepTags: readonly string[]): void {
  for (let i = 0; i < stepTags.length; i++) tags.set(stepTags[i], (tags.get(stepTags[i]) ?? 0) + 1);
}

/** The end of a run judged at a quiet state (`quietVerdict`, `boundVerdict`). */
function judged<S, E>(r: FastRun<S, E>, v: Violation | null | 'waiting'): FastRunResult {
  if (v === 'waiting') return result(r, 'waiting', null);
  return v !== null ? result(r, 'violation', { ...v, step: r.steps }) : result(r, 'quiet', null);
}

/** One step of the run (or its end): null while it goes on. */
function advance<S, E>(r: FastRun<S, E>): FastRunResult | null {
  watchStep(r.steps + 1);
  const empty = listDrawable(r);
  const system = r.system;
  if (r.phase === 'heal' && (empty || (system.quiescent?.(r.state) ?? false))) {
    return judged(r, quietVerdict(system, r.state));
  }
  if (r.count === 0 || r.budget === 0) {
    if (r.phase === 'fault' && system.heal !== undefined) {
      r.phase = 'heal';
      r.budget = r.bounds.healStepsMax;
      r.state = system.heal(r.state);
      r.steps++;
      if (r.kept !== null) keep(r.kept, null, r.state);
      return null;
    }
    if (r.phase === 'heal') {
      const v = boundVerdict(system, r.state);
      return v === 'busy' ? result(r, 'heal-bound', { ...busyAfterHealing(r.bounds.healStepsMax), step: r.steps }) : judged(r, v);
    }
    return result(r, r.count === 0 ? 'no-events' : 'fault-bound-no-heal', null);
  }
  const first = r.checked === null;
  const out = takeStep(r);
  const state = out.state;
  r.state = state;
  r.budget--;
  r.steps++;
  countTags(r.tags, out.tags);
  const changed = changedBits(r.prep.fields, r.observed, state);
  const always = r.prep.always;
  for (let i = 0; i < always.length; i++) {
    const w = always[i];
    if (!first && (changed & w.bits) === 0) continue;
    const v = w.property.check(state);
    if (v !== null) return result(r, 'violation', { ...v, step: r.steps });
  }
  observe(r, changed);
  r.checked = state;
  r.observed = state;
  return null;
}

/**
 * Runs one seeded world as {@link runSeed} does, keeping only the counts (and
 * with `kept`, its states and events), from the system's initial state or
 * from `initial`.
 */
export function runSeedFast<S, E>(system: TransitionSystem<S, E>, seed: number, bounds: RunBounds, kept: Kept<S, E> | null = null, initial?: S): FastRunResult {
  const r = new FastRun(system, seed, bounds, kept, initial);
  watchAt(POSITION_RUN, seed, 1);
  observe(r, -1);
  for (;;) {
    const end = advance(r);
    if (end !== null) return end;
  }
}
