/**
 * The shape of one entry of the event table (docs/faults.md): everything the
 * simulator, the explorer's object world, the report, the trace renderers and
 * the docs need to know about one kind of event, stated once. The entries
 * live in this folder, a file per group; `table.ts` lists them in order.
 */
import type { EngineProc, World, WorldEvent } from '../world.ts';
import type { WorldOptions } from '../options.ts';
import type { WorldContext } from './context.ts';
import type { LifecycleState } from '../../../model/lifecycle.ts';

/** A top-level field of the world (a kind's own slots included). */
export type WorldField = keyof World & string;

/** How the report and the renderers file a kind: the system's own work, a failure of the world, or a person's action. */
export type EventTag = 'normal' | 'fault' | 'operator';

/** The subsystems, each a choice group with its own seeded stream in random runs. */
export type GroupName = 'engine' | 'broker' | 'process' | 'producer' | 'operator' | 'fault';

/**
 * What an entry's instances range over. Entries of one group are enumerated
 * in table order, a run of consecutive entries with the same range in one
 * pass: `engine` and `engine-id` entries together, per engine (its `engine-id`
 * entries per id first, then its `engine` entries); `id` entries per id;
 * `world` entries once. This order is the order of events in a choice group,
 * so it decides which event a seed draws: keep it when editing the table.
 */
export type Range = 'engine' | 'engine-id' | 'id' | 'world';

/** The engine and id an entry is asked about (null when its range does not include it). */
export interface Subject {
  engine: EngineProc | null;
  id: string | null;
}

/** How a step is drawn in the trace's sequence diagram (plain data; the renderer draws it). */
export interface Drawing {
  from: string;
  to: string;
  /** True draws a broken arrow: the world misbehaved here. */
  broken: boolean;
  text: string;
  /** A note beside the arrow (a fault says what went wrong). */
  note?: { over: string; text: string };
  /** True draws the note alone, no arrow: a step no one lane takes (time passing is everyone's). */
  noteOnly?: boolean;
}

/** What the diagram words of a step may look at. */
export interface StepView {
  /** The step's number in the trace. */
  n: number;
  label: string;
  tags: readonly string[];
  /** The durable changes of the step in words, '' when none. */
  durable: string;
  enginesBefore: readonly EngineProc[];
  enginesAfter: readonly EngineProc[];
  /** Whether the world runs old rules beside the new (version skew): only then are an engine's rules "new" or "old". */
  skewed: boolean;
}

/**
 * A durable write, for the crash-point matrix: the lifecycle state an engine
 * is in when this write is its next step. A crash in that state is a crash
 * just before the write (and just after the write before it).
 */
export interface DurableWrite {
  write: string;
  at: string;
}

/**
 * How a kind's swarm knob draws its weight: `base` for the healthy answer
 * (6-11, so that most POSTs succeed), `on` for a kind switched off entirely
 * in about one seed in four (else 1-4); `setting`: nothing is drawn into the
 * weights, the kind's weight follows a world setting it declares (its
 * `setting`, drawn from the setting's own stream).
 */
export type KnobDraw = 'base' | 'on' | 'setting';

/**
 * The swarm knob of a kind: `stream` names the seeded stream the swarm draws
 * its weight from (`drawWeights` in options.ts), its own, so that adding a
 * kind moves no other kind's draw; `draw` says how (see `KnobDraw`). A world
 * keeps the drawn weights by kind name (`WorldOptions.weights`).
 */
export interface Knob {
  stream: string;
  /** Its weight in a world's options (0: switched off for that world). */
  weight: (options: WorldOptions) => number;
  draw: KnobDraw;
  /**
   * Where trace format 1 kept this weight (by position in one of two lists),
   * for reading old traces (sim/outbox/legacy-options.ts); absent for kinds
   * added since.
   */
  v1?: { list: 'answerWeights' | 'faultWeights'; index: number };
}

/** A kind's weight as a world's options hold it, by its name (0 when absent: a trace from before the kind). */
export function weightOf(name: string): (options: WorldOptions) => number {
  return (options) => options.weights[name] ?? 0;
}

/**
 * A world setting a kind declares for itself (the broker's dedupe window):
 * its key in `WorldOptions.settings` (and so in traces), the flag `check`
 * and `explore` take for it, its bounds, its swarm draw on a stream of its
 * own, and its words in the options line and the commands' first line.
 */
export interface Setting {
  /** Key in `WorldOptions.settings`; the camel-case form of `flag` (as commander names it). */
  name: string;
  /** The flag of `check` and `explore`, e.g. `--dedupe-window`; it takes an integer. */
  flag: string;
  help: { check: string; explore: string };
  min: number;
  max: number;
  /** Its value when not set: `explore`'s default, and a trace that predates it. */
  off: number;
  /** The seeded stream the swarm draws it from. */
  stream: string;
  /** Its value for a seed, drawn from `next` (the stream's numbers in [0, 1)). */
  draw(next: () => number): number;
  /** Its words in a world's options line (`describeOptions`). */
  words(value: number): string;
  /** Its words in the first line of `check` and `explore`, when it is set. */
  banner(value: number): string;
  /**
   * Another setting this one means nothing without (a lease needs a clock):
   * a flag giving this one on without that one on is bad input, `what` says
   * what is missing.
   */
  needs?: { setting: string; what: string };
  /** It acts on the older version's engines: given on where no older version runs beside, bad input. */
  needsOlder?: true;
}

/** Whether a world of these options has setting `s` on (its value, or its `off` value when absent, is not 0). */
export function settingOn(options: { settings?: Readonly<Record<string, number>> }, s: Setting): boolean {
  return (options.settings?.[s.name] ?? s.off) !== 0;
}

/** A world event's `apply`. */
export type Apply<E extends WorldEvent = WorldEvent> = (w: World, e: E, ctx: WorldContext, tags: string[]) => World;

/** One kind of event. `E` is the world event it produces. */
export interface EventKind<E extends WorldEvent = WorldEvent> {
  /** Unique; the word the report and the docs use. */
  name: string;
  group: GroupName;
  tag: EventTag;
  range: Range;
  /** The world event's `kind` it produces. */
  event: E['kind'];
  /** When several entries produce the same world event kind: whether `e` is this entry's. */
  owns?(e: E): boolean;
  /**
   * Its enabled instances in a world, for one subject of its range. Made as
   * array literals (`[]`, `[{ ... }]`, a loop pushing into `[]`), not by
   * `.map`: a mapped array is of another hidden class (V8's holey elements),
   * and the listing reads every kind's answer at one site, which code
   * optimised on the others' classes met as new and threw away.
   */
  enabled(w: World, ctx: WorldContext, at: Subject): E[];
  /**
   * The world's top-level fields its `enabled` and `weight` read, besides the
   * subject they are asked about (engines come from `engines`, ids from the
   * context). A random run lists a group again only when a field one of its
   * kinds reads is no longer the same object (worlds are immutable; see
   * `listing-memo.ts`); absent: it may read any field, and its group is
   * listed afresh at every step. `listing-memo.test.ts` holds it to what
   * `enabled` and `weight` read.
   */
  reads?: readonly WorldField[];
  /**
   * Of `reads`, those it reads in a world of these surroundings (its options
   * and rule sets), when fewer (a field only a decision the rule sets do not
   * make would look at); absent: all of `reads`. A random run keeps a listing
   * across changes of the others. `listing-memo.test.ts` holds `enabled` and
   * `weight` to it.
   */
  readsIn?(ctx: WorldContext): readonly WorldField[];
  /**
   * Of a kind whose range includes the engine: the lifecycle states of an
   * engine for which it can have an instance (`enabled` gives none for an
   * engine in any other state); absent: any state. The listing of a group
   * does not ask it about engines in other states (a random run asks every
   * group whether it has an event at every step). `table.test.ts` holds
   * `enabled` to it.
   */
  engineStates?: readonly LifecycleState[];
  /**
   * Whether a world of these surroundings (its options and rule sets, never
   * its state) can enable it at all: false when `enabled` gives nothing in
   * every world a run of them reaches (a knob switched off, a setting absent,
   * a budget of 0, no version skew). A random run's listing does not ask a
   * kind that is not in its world (about a third of the `enabled` calls of a
   * run of the swarm's worlds); absent: it may be. `table.test.ts` holds
   * `enabled` to it.
   */
  inWorld?(ctx: WorldContext): boolean;
  /** Its weight within a weighted group (broker answers, faults). */
  weight?(w: World, ctx: WorldContext): number;
  /** What it does: the next world; pushes the tags the run counts. Pure in `w`. */
  apply(w: World, e: E, ctx: WorldContext, tags: string[]): World;
  /** One line in a trace. */
  label(e: E): string;
  /**
   * When a recorded event of this kind is the same outside action as an
   * enabled one, in replay under other rules (`--under`): equal keys. Absent:
   * the event exactly. An engine's step (or crash) is the same whatever
   * lifecycle state it is in.
   */
  replayKey?(e: E): string;
  /** Replacing a PARKED record by this kind's step is the operator's release of the park (requeue), not a park lost. */
  releasesPark?: boolean;
  /** The tag that counts it in a check's report, or null when no tag is its own (engine steps). */
  counter: string | null;
  /** Its sequence-diagram drawing. */
  draw(e: E, v: StepView): Drawing;
  /**
   * What went wrong that the engine cannot see from its own step, in a few
   * words: traces flag such a step as a fault and say this beside it. Absent
   * for healthy kinds, operator actions, and answers the engine reads truly
   * (a refusal says what happened).
   */
  hidden?: string;
  knob: Knob | null;
  /**
   * Top-level slots of the world this kind owns: optional fields it declares
   * on `World` from its own file (`declare module '../world.ts'`), absent
   * until it writes them. The world's key (encode.ts) reads them from here.
   */
  slots?: readonly string[];
  /** A world setting this kind declares (see `Setting`). */
  setting?: Setting;
  /**
   * A step the system takes by itself once faults stop, outside the engine
   * group (time passing): the exhaustive liveness search takes it among the
   * steady steps, beside engine steps and the steady broker answer.
   */
  steadyStep?: boolean;
  /**
   * This kind changes how other kinds' steps act (the dedupe window ages the
   * broker's memory on every answer): `of` says which kinds, `apply` wraps
   * their `apply`. The table composes it (`applyOf` in table.ts).
   */
  wraps?: { of(k: AnyKind): boolean; apply(inner: Apply): Apply };
  /**
   * Broker answers only: whether the broker may settle on this answer once
   * faults stop (`healAnswer`): `healthy` for the healthy answer, `failure`
   * for a failure that can persist (an outage), absent for one that cannot.
   */
  steady?: 'healthy' | 'failure';
  /**
   * What its steps do to engine processes: `ends` an engine (a crash), `starts`
   * one with the next fresh pid (a restart), or both (an upgrade). The
   * shrinker reads it to drop a crash with the restart after it.
   */
  processes?: 'ends' | 'starts' | 'ends-and-starts';
  /**
   * A step the world will take by itself, neither an engine's nor a fault
   * that stops with the others (a POST in transit landing): the world is not
   * quiet while one is enabled (outbox-system.ts).
   */
  bySelf?: boolean;
  /** The durable writes made by this kind's steps (crash-point matrix rows). */
  durable?: readonly DurableWrite[];
  /** A crash this kind causes in the middle of a durable write: the write and the crash tag. */
  crashDuring?: { write: string; tag: string };
  /** Enabled only with `--old-rules` (version skew); the report expects it only then. */
  needsOldRules?: boolean;
  /**
   * Circumstances of this kind's steps that the report counts as kinds of
   * their own (a produce that replaces a file being sent), each by its tag.
   */
  variants?: readonly Variant[];
  doc: {
    /** Trace label of an example instance. */
    example: string;
    enabled: string;
    does: string;
    /** The real failure (or the real action) it stands for. */
    stands: string;
  };
}

/**
 * An entry in the one shape every entry of the table has: every field of
 * {@link EventKind}, in this order, an absent one undefined. The listing
 * reads `enabled` (and `weight`, `engineStates`) off every kind at one site:
 * written as literals of their own, the entries came in twenty hidden classes
 * (V8's maps), and each such read was a generic, megamorphic one; of one
 * class, it is a plain load. The type fails to compile when `EventKind`
 * gains a field not copied here; `hidden-class.test.ts` holds the table's
 * entries to one class.
 */
export function eventKind<E extends WorldEvent>(k: EventKind<E>): EventKind<E> {
  const entry: { [F in keyof Required<EventKind<E>>]: EventKind<E>[F] } = {
    name: k.name,
    group: k.group,
    tag: k.tag,
    range: k.range,
    event: k.event,
    owns: k.owns,
    enabled: k.enabled,
    reads: k.reads,
    readsIn: k.readsIn,
    engineStates: k.engineStates,
    inWorld: k.inWorld,
    weight: k.weight,
    apply: k.apply,
    label: k.label,
    replayKey: k.replayKey,
    releasesPark: k.releasesPark,
    counter: k.counter,
    draw: k.draw,
    hidden: k.hidden,
    knob: k.knob,
    slots: k.slots,
    setting: k.setting,
    steadyStep: k.steadyStep,
    wraps: k.wraps,
    steady: k.steady,
    processes: k.processes,
    bySelf: k.bySelf,
    durable: k.durable,
    crashDuring: k.crashDuring,
    needsOldRules: k.needsOldRules,
    variants: k.variants,
    doc: k.doc,
  };
  return entry;
}

/** A circumstance of another kind's step, counted as a kind of its own. */
export interface Variant {
  name: string;
  tag: EventTag;
  counter: string;
  /** What went wrong, in a few words (traces). */
  hidden?: string;
  doc: { enabled: string; does: string; stands: string };
}

/**
 * An entry of any event kind. The members taking `E` are methods, so an entry
 * for one world event kind is assignable here (method parameters are bivariant).
 */
export type AnyKind = EventKind<WorldEvent>;

/** A diagram message's text: the step number, what happened, and its durable changes. */
export function stepText(v: StepView, what: string): string {
  return `${v.n}. ${what}${v.durable === '' ? '' : ` · ${v.durable}`}`;
}
