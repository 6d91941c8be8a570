/**
 * What the simulator, the explorer and the shrinker know of a system: a
 * transition system (states, the events enabled in each, grouped by the
 * subsystem that chooses among them, a pure step), a canonical key, and
 * named properties. Nothing in `sim/core` knows the outbox (the checker knows
 * no particular system); `outboxSystem` and `receiptsSystem` both implement
 * this interface. (Not called a model: `model/` is the domain, the
 * statecharts and rule sets; see docs/architecture.md, "Names".)
 */

/** A property kind: checked at every state, hoped to be reached, or checked once quiet. */
export type PropertyKind = 'always' | 'sometimes' | 'eventually';

/** A property violation, naming what broke where (a conclusion names the layer it was measured at). */
export interface Violation {
  property: string;
  /** The item (outbox id, command key) it concerns. */
  subject: string;
  /** The body or value concerned. */
  body: string;
  /** The layer the breach was measured at (record, archive, broker, start, ...). */
  layer: string;
  /** One human sentence. */
  detail: string;
}

/** A named predicate over states. */
export interface Property<S> {
  name: string;
  kind: PropertyKind;
  /** One line: what must hold. */
  description: string;
  /** `always`/`eventually`: the violation, or null when it holds. `sometimes`: non-null when the goal is reached. */
  check(state: S): Violation | null;
  /**
   * The top-level fields of the state `check` reads, when the property can
   * say. A packed explorer memoises the verdict on those fields alone; a
   * test holds each declaration to what `check` really touches.
   */
  reads?: readonly (keyof S & string)[];
}

/** Events enabled for one subsystem, with their relative weights for random runs. */
export interface ChoiceGroup<E> {
  /** Subsystem name; random runs draw within a group from that subsystem's own stream. */
  group: string;
  /** Weight of choosing this group at all (random runs only). */
  weight: number;
  events: readonly E[];
  /** Relative weights of the events (random runs only); equal when absent. */
  eventWeights?: readonly number[];
}

/** The result of one step: the next state and tags counted by reports. */
export interface StepResult<S> {
  state: S;
  /** Labels of what happened (fault kinds, layers touched), counted per run. */
  tags: readonly string[];
}

/** A system the simulator can run and the explorer can search. */
export interface TransitionSystem<S, E> {
  /** The state to start from. */
  initial(): S;
  /** The events enabled in a state, by subsystem. Empty when the system is quiet. */
  choices(state: S): readonly ChoiceGroup<E>[];
  /** Applies an event. Pure: never mutates `state`. */
  step(state: S, event: E): StepResult<S>;
  /** A short human label for an event. */
  label(event: E): string;
  /** Canonical encoding of a state: equal states give equal keys. */
  key(state: S): string;
  /** Properties checked on every state reached. */
  properties: readonly Property<S>[];
  /**
   * Stops the faults (liveness phase): returns the state in which only healthy
   * behaviour is enabled. Absent when the system has no liveness phase.
   */
  heal?(state: S): S;
  /** True when nothing more will happen without outside action (checked during the liveness phase). */
  quiescent?(state: S): boolean;
  /**
   * True when a state quiet now would still act at a later time (a rule's
   * window): where its world never reaches that time (no clock, whose time
   * stands still, or a search at the clock's horizon) its `eventually`
   * properties are not judged, the worlds that pass the time judge them
   * (docs/rules.md, 'Time'). Absent: never.
   */
  waitsForTime?(state: S): boolean;
  /**
   * The state once every process's step sequence under way ends, when none
   * of those steps changes anything durable or sends anything; null
   * otherwise. Asked only at the liveness phase's bound: processes that
   * keep starting passes that change nothing (engines scanning files they
   * do not select) are busy at every step, yet nothing is retried.
   */
  settle?(state: S): S | null;
  /**
   * The state at the liveness phase's bound waited out, as the phase would
   * have gone on: passes under way ended, time moved on to where a pass
   * acts and that pass taken, until the state is quiet (bounded); null when
   * it does not become quiet so. Asked only at the bound, of a state that is
   * not quiet: a back-off of days is then waited out, not called retrying
   * for ever because the phase's steps ran out first.
   */
  waitOut?(state: S): S | null;
  /** `choices` one group at a time, when the system can list them so (a random run lists only the group it draws). */
  groups?: GroupedChoices<S, E>;
  /** Which top-level fields differ between two states, as bits, when the system can say it faster than a read of each field by name. */
  fieldBits?: FieldBits<S>;
}

/** A state's top-level fields as bits (a random run compares the fields its properties read once a step). */
export interface FieldBits<S> {
  /** A field's bit, or 0 when it has none (a property reading it is checked after every step). */
  bitOf(field: keyof S & string): number;
  /** The bits of the fields that are not the same value in `a` and `b`. */
  changed(a: S, b: S): number;
}

/** A state's choice groups one at a time: group `i` is `choices(state)[i]`. */
export interface GroupedChoices<S, E> {
  count(state: S): number;
  weight(state: S, i: number): number;
  /** Whether group `i` has an event (without listing them all). */
  hasEvents(state: S, i: number): boolean;
  choice(state: S, i: number): ChoiceGroup<E>;
  /**
   * All groups at once, as a random run asks before each draw: writes the
   * index and weight of each group with an event and a positive weight into
   * `picks` and `weights` from 0 (past the count returned, whatever was there
   * stays), and returns their count; -1 when no group at all has an event.
   * Optional: without it, the run asks {@link count}, {@link weight} and
   * {@link hasEvents} group by group (the same answers, more calls).
   */
  drawable?(state: S, picks: number[], weights: number[]): number;
}

/**
 * `system` checking one property (and the `sometimes` goals, which end no
 * run): the run to a state that violates it may pass a state that violates
 * another first (`explore --continue` finds each property's shortest path
 * on its own), and a trace of that property must record and replay to its
 * own violation, not stop at the other's.
 */
export function checkingOnly<S, E>(system: TransitionSystem<S, E>, property: string): TransitionSystem<S, E> {
  // The liveness bound's own violation (busy) is judged by every `eventually` property: a state waited out at the
  // bound that violates one of them is busy, one that holds them all is clean (liveness.ts, boundVerdict). Without
  // them a busy counterexample read as clean when run again to write its trace.
  const bound = property === BUSY_PROPERTY;
  return { ...system, properties: system.properties.filter((p) => p.name === property || p.kind === 'sometimes' || (bound && p.kind === 'eventually')) };
}

/** The property a run still busy at the liveness phase's bound violates (random.ts, `busyAfterHealing`). */
export const BUSY_PROPERTY = 'quiet-after-healing';
