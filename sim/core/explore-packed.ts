/**
 * Breadth-first search over a {@link PackedSystem}: the same search as
 * {@link explore} (same order, same counts, same shortest counterexamples),
 * on states that are fixed-width integer vectors. Nothing per state lives on
 * the JavaScript heap: the frontier is a {@link StateQueue}, the visited set
 * a {@link FingerprintSet} of 64-bit hashes of the vectors, the parent links
 * a {@link GrowableIndex}. With a {@link SteadyLiveness}, the `eventually`
 * properties are checked as each state is expanded (`explore-liveness.ts`).
 * With the system's {@link Symmetry}, the visited set holds prints of classes
 * of states (one state stored per class), while the frontier keeps real
 * states, so paths and traces stay real.
 */
import { LivenessSearch, printKey, ROOT, StepModesCache, type LivenessGraph, type RegionQueue, type SteadyLiveness, type StoredPaths } from './explore-liveness.ts';
import { SteadyGraph } from './steady-graph.ts';
import { closeCycle, GrowableIndex, markSearchError, searchResult, type ExploreBounds, type ExploreResult, type FoundViolation, type Symmetry } from './explore.ts';
import { FingerprintSet } from './fingerprint.ts';
import { NumberedFingerprintSet } from './numbered-fingerprints.ts';
import * as tuples from './tuple-table.ts';
import type { Violation } from './system.ts';
import { StateQueue } from './state-queue.ts';
import { POSITION_SEARCH, watchAt } from '../watch.ts';

/** Where {@link PackedSystem.expand} writes successors. */
export interface SuccessorSink {
  /** The array the next successor is written into. */
  out: Int32Array;
  /**
   * Takes the successor just written to `out`, reached by the event of this
   * index; true to stop. A system may give the event too (the liveness
   * search records which steps are steady; without it the events are listed).
   */
  take(eventIndex: number, event?: unknown): boolean;
}

/** Where {@link PackedSystem.expandKept} writes successors. */
export interface KeptSink<E> {
  /** The array the next successor is written into. */
  out: Int32Array;
  /** Whether the successor by `event` is wanted (one not wanted is not computed). */
  keep(event: E): boolean;
  /** Takes the successor just written to `out`, reached by `event`, of this index; true to stop. */
  take(eventIndex: number, event: E): boolean;
}

/** A system whose states are packed into `width` 32-bit integers. */
export interface PackedSystem<E> {
  readonly width: number;
  /** Writes the initial state into `out`. */
  initial(out: Int32Array): void;
  /** The enabled events, in the order of the system's `choices` (so event indices agree). */
  events(state: Int32Array): readonly E[];
  /** Writes the state after `event` into `out` (which is not `state`). */
  apply(state: Int32Array, event: E, out: Int32Array): void;
  /**
   * Writes each successor of `state` into `sink.out` in turn, in event
   * order, and calls `sink.take` with the event's index; stops when `take`
   * returns true. The same successors as `apply` over `events`, computed
   * faster. `sink.out` may be another array after each `take`.
   */
  expand(state: Int32Array, sink: SuccessorSink): void;
  /**
   * Optional: the successors by the events `sink.keep` accepts, as `expand`
   * gives them, without listing the events first (the liveness search's
   * cycle search follows a few kinds of events from many states).
   */
  expandKept?(state: Int32Array, sink: KeptSink<E>): void;
  /** Names of the `always` properties, checked by index. */
  readonly always: readonly string[];
  /**
   * The violation of `always[p]` in `state`, or null. `changed` summarises
   * how `state` differs from a state in which `always[p]` held (see
   * {@link changedSlots}): a system may answer null at once when no slot the
   * property reads is marked.
   */
  check(state: Int32Array, p: number, changed: number): Violation | null;
  /** Symmetry reduction: states are stored by the prints of their classes (see {@link Symmetry}). */
  readonly symmetry?: Symmetry<Int32Array, E>;
  /**
   * Optional, without {@link symmetry}: a symmetry of the system that the
   * liveness search's cycle search may use on its own while the visited set
   * keeps every state. Whether a steady mode has a bottom cycle reachable from
   * a state is the same for every state of its class, and the search from
   * one state reaches everything its steps reach, which is far beyond a
   * bounded search's states: in an unreduced search of four engines each
   * region was searched again for each of the 24 orders of the engines.
   */
  readonly livenessSymmetry?: Symmetry<Int32Array, E>;
  /**
   * Partial-order reduction (`por.ts`): which of the successors of `state`
   * to take, by event index (1 keep, 0 skip), or null for all. `visited`
   * says whether a state's print is stored already (for the cycle proviso).
   */
  readonly reduce?: (state: Int32Array, visited: (s: Int32Array) => boolean) => Uint8Array | null;
}

/** How the visited set prints a state of `system`: its class under symmetry, else the vector. */
export function packedPrint<E>(system: PackedSystem<E>): (s: Int32Array, out: Uint32Array) => void {
  const symmetry = system.symmetry;
  const width = system.width;
  return symmetry === undefined ? (s, out) => fingerprintInts(s, width, out) : (s, out) => symmetry.print(s, out);
}

/** `changed` for a state with no parent: every slot marked. */
export const ALL_CHANGED = -1;

/**
 * A 32-bit summary of the slots in which `state` differs from `parent`:
 * bit `i % 32` is set for each differing slot `i`. A property reading slots
 * whose bits are all clear read nothing that changed (bits shared by slots
 * 32 apart only make a check happen that could have been skipped).
 */
export function changedSlots(state: Int32Array, parent: Int32Array, width: number): number {
  let mask = 0;
  for (let i = 0; i < width; i++) if (state[i] !== parent[i]) mask |= 1 << (i & 31);
  return mask;
}

/** The bits of {@link changedSlots} that stand for `slots`. */
export function slotMask(slots: readonly number[] | Int32Array): number {
  let mask = 0;
  for (const i of slots) mask |= 1 << (i & 31);
  return mask;
}

/** States expanded at the first look for a lasso on the recorded steps (then each time they have grown {@link LASSO_LOOK_GROWTH} times). */
const LASSO_LOOK_FIRST = 256;
/** How much the states expanded grow between two looks for a lasso before the end of a search. */
const LASSO_LOOK_GROWTH = 4;

/** Successors taken into one batch (see `flush` below); a state with more is taken in several. */
const BATCH_MAX = 64;

// A module-local copy: a module loader may turn each access to an imported binding into a getter call.
const fingerprintInts = tuples.fingerprintInts;

/** The packed system's graph for the liveness search (shortest paths by a search without liveness). */
function packedGraph<E>(system: PackedSystem<E>, statesMax: number): LivenessGraph<Int32Array, E> {
  const width = system.width;
  const symmetry = system.symmetry ?? system.livenessSymmetry;
  const print = symmetry === undefined ? packedPrint(system) : (s: Int32Array, out: Uint32Array) => symmetry.print(s, out);
  const after = (from: Int32Array, events: readonly E[]): Int32Array => {
    let s = Int32Array.from(from);
    for (const e of events) {
      const t = new Int32Array(width);
      system.apply(s, e, t);
      s = t;
    }
    return s;
  };
  const stateAfter = (events: readonly E[]): Int32Array => {
    const s = new Int32Array(width);
    system.initial(s);
    return after(s, events);
  };
  /** The successors by kept events as `successors` gives them, each state a scratch array (see `eachSuccessor`). */
  const eachSuccessor = (s: Int32Array, keep: (e: E) => boolean, visit: (event: E, state: Int32Array) => void): void => {
    if (system.expandKept !== undefined) {
      kept.keep = keep;
      kept.visit = visit;
      system.expandKept(s, kept);
      return;
    }
    const events = system.events(s);
    const last = lastKept(events, keep);
    if (last < 0) return;
    const sink: SuccessorSink = {
      out: scratch,
      take(ei) {
        if (keep(events[ei])) visit(events[ei], scratch);
        return ei >= last;
      },
    };
    system.expand(s, sink);
  };
  const scratch = new Int32Array(width);
  const kept: KeptSink<E> & { visit: (event: E, state: Int32Array) => void } = {
    out: scratch,
    keep: () => false,
    visit: () => undefined,
    take(_ei, event) {
      kept.visit(event, scratch);
      return false;
    },
  };
  return {
    print,
    successors(s, keep) {
      const found: { event: E; state: Int32Array }[] = [];
      eachSuccessor(s, keep, (event, state) => found.push({ event, state: Int32Array.from(state) }));
      return found;
    },
    eachSuccessor,
    retain: (s) => Int32Array.from(s),
    stateQueue: () => new RegionStates(width),
    shortestPathTo(targets) {
      const p = new Uint32Array(2);
      const target: PackedSystem<E> = {
        ...system,
        always: ['target'],
        check(s) {
          print(s, p);
          return targets.has(printKey(p)) ? { property: 'target', subject: '', body: '', layer: '', detail: '' } : null;
        },
      };
      return explorePacked(target, { statesMax }).violations[0]?.events ?? null;
    },
    stateAfter,
    ...(symmetry === undefined ? {} : { closeCycle: (entry: Int32Array, cycle: E[]) => closeCycle(symmetry, entry, cycle, after) }),
  };
}

/** A cycle search's states in one growable vector (a typed array per state would cost an allocation each). */
class RegionStates implements RegionQueue<Int32Array> {
  private states = new Int32Array(1 << 10);
  private readonly head: Int32Array;
  private read = 0;
  private written = 0;

  constructor(private readonly width: number) {
    this.head = new Int32Array(width);
  }

  push(s: Int32Array): void {
    const w = this.width;
    if (this.written + w > this.states.length) {
      const grown = new Int32Array(Math.max(this.states.length * 2, this.written + w));
      grown.set(this.states.subarray(0, this.written));
      this.states = grown;
    }
    for (let i = 0; i < w; i++) this.states[this.written + i] = s[i];
    this.written += w;
  }

  shift(): Int32Array {
    if (this.read >= this.written) throw new Error('region states: shift from an empty queue');
    for (let i = 0; i < this.width; i++) this.head[i] = this.states[this.read + i];
    this.read += this.width;
    return this.head;
  }

  clear(): void {
    this.read = 0;
    this.written = 0;
  }
}

/** The index of the last event `keep` accepts, or -1 (the expansion stops after it: in the outbox, engine steps and answers come first). */
function lastKept<E>(events: readonly E[], keep: (e: E) => boolean): number {
  for (let i = events.length - 1; i >= 0; i--) if (keep(events[i])) return i;
  return -1;
}

/**
 * Whether a lasso was found on the steps recorded so far (see the looks for
 * a lasso in {@link explorePacked}). A module function: the search's code calls the same
 * function in every search (see {@link CallerAsks}).
 */
function lassoFound<E>(steps: SteadyGraph | null, lively: LivenessSearch<Int32Array, E> | null, paths: StoredPaths<Int32Array, E>): boolean {
  if (steps === null || lively === null || !lively.lassoLeft) return false;
  const component = steps.bottomComponent();
  return component !== null && lively.lassoOnStored(component, paths);
}

/** When the next look for a lasso is due, by states expanded (see the looks for a lasso in {@link explorePacked}). */
function nextLassoLook(expanded: number): number {
  return Math.max(LASSO_LOOK_FIRST, LASSO_LOOK_GROWTH * expanded);
}

/**
 * What the search asks its caller on the way (progress, a reason to stop, a
 * memory growth), and the state bound. The calls sit in methods of one class,
 * not in closures made per search: the search's optimised code, shared by
 * every search in the process, met a new closure at each of these rare call
 * sites in each new search and was thrown away ('wrong call target'; see
 * docs/performance.md, 'The explorer').
 */
class CallerAsks {
  /** The visited set's size when its growth was last asked about (one growth is asked once). */
  private askedAt = -1;
  // The caller's functions read once: bounds come in several hidden classes (see explorePacked).
  private readonly onProgress: ExploreBounds['onProgress'];
  private readonly stopReason: ExploreBounds['stopReason'];
  private readonly beforeGrowth: ExploreBounds['beforeGrowth'];

  constructor(
    bounds: ExploreBounds,
    private readonly seen: { readonly size: number; readonly growthBytes: number },
    private readonly lively: { readonly growthBytes: number } | null,
    private readonly steps: SteadyGraph | null,
    private readonly progressEvery: number,
    private readonly stopEvery: number,
  ) {
    this.onProgress = bounds.onProgress;
    this.stopReason = bounds.stopReason;
    this.beforeGrowth = bounds.beforeGrowth;
  }

  /**
   * The memory a table is about to take at once (the visited set doubles;
   * the liveness flags grow as they are set): asked of the caller before it
   * is taken; the caller's reason to refuse it, or null.
   */
  growthRefused(): string | null {
    const beforeGrowth = this.beforeGrowth;
    const size = this.seen.size;
    if (beforeGrowth === undefined || this.askedAt === size) return null;
    const bytes = this.seen.growthBytes + (this.lively?.growthBytes ?? 0);
    if (bytes === 0) return null;
    this.askedAt = size;
    return beforeGrowth(bytes);
  }

  /** The same for the recorded steps' arrays, each growth asked once (see SteadyGraph.growthToAsk). */
  stepsGrowthRefused(): string | null {
    const beforeGrowth = this.beforeGrowth;
    if (beforeGrowth === undefined || this.steps === null) return null;
    const bytes = this.steps.growthToAsk();
    return bytes === 0 ? null : beforeGrowth(bytes);
  }

  /** At `size` states stored: progress every `progressEvery`, a reason to stop every `stopEvery`; why to stop, or null (the state bound is met where a state past it would be stored). */
  atCount(size: number, depth: number): string | null {
    if (size % this.progressEvery === 0) this.onProgress?.(size, depth);
    if (size % this.stopEvery === 0) {
      const stop = this.stopReason?.() ?? null;
      if (stop !== null) return stop;
    }
    return null;
  }
}

/** Breadth-first search from the system's initial state; with `liveness`, the `eventually` properties too. */
export function explorePacked<E>(system: PackedSystem<E>, bounds: ExploreBounds, liveness?: SteadyLiveness<Int32Array, E>): ExploreResult<E> {
  const stopAtFirst = bounds.stopAtFirst ?? true;
  const progressEvery = bounds.progressEvery ?? 10_000;
  const stopEvery = bounds.stopEvery ?? progressEvery;
  // The rest of the bounds read once, here: the loop below reads locals. A search is given bounds of
  // several hidden classes (its caller's; a lasso's shortest path, `{ statesMax }`), and code that
  // read them per state, optimised on one class, was thrown away when it met the next.
  const statesMax = bounds.statesMax;
  const stopReason = bounds.stopReason;
  /**
   * Lassos are looked for on the steps this search takes, recorded (see
   * `steady-graph.ts`), rather than by a cycle search from each state, which
   * expanded most busy states a second time. Not under partial-order
   * reduction: a state's skipped steps would look like no way out.
   */
  const recorded = liveness !== undefined && system.reduce === undefined;
  const lively = liveness === undefined ? null : new LivenessSearch(liveness, packedGraph(system, statesMax), undefined, () => stopReason?.() ?? null, recorded, bounds.lookAhead);
  const steps = recorded ? new SteadyGraph(liveness.modes.length) : null;
  const checked = [...system.always, ...(lively?.checked ?? [])];
  const depthMax = bounds.depthMax ?? -1;
  const width = system.width;
  // Numbered when steps are recorded: an edge names the state it leads to by its number.
  const numbered = recorded ? new NumberedFingerprintSet(16) : null;
  const seen: FingerprintSet | NumberedFingerprintSet = numbered ?? new FingerprintSet(16);
  const index = new GrowableIndex();
  const queue = new StateQueue(width);
  const start = new Int32Array(width);
  system.initial(start);
  const current = new Int32Array(width);
  const fp = new Uint32Array(2);
  const print = packedPrint(system);
  print(start, fp);
  seen.add(fp[0], fp[1]);
  index.push(-1, 0);
  queue.push(start);
  let transitions = 0;
  let depth = 0;
  let queueBytesMax = 0;
  const violations: FoundViolation<E>[] = [];
  // A typed array (1: violated): one class whatever the count of properties (an array of booleans made
  // by `map` has another class when empty, as a lasso's shortest-path search's system may give).
  const violated = new Uint8Array(system.always.length);

  const pathTo = (i: number): E[] => {
    const events: E[] = [];
    const s = Int32Array.from(start);
    const t = new Int32Array(width);
    for (const ei of index.chain(i)) {
      const e = system.events(s)[ei];
      events.push(e);
      system.apply(s, e, t);
      s.set(t);
    }
    return events;
  };
  /**
   * The states expanded at which the next look for a lasso on the steps
   * recorded so far is due ({@link lassoFound}: a bottom component found
   * there is one of the whole graph). A look is made at the end of the
   * search, and, when the search stops at its first violation, at the end of a level
   * once the count of states expanded has grown {@link LASSO_LOOK_GROWTH}
   * times since the last look, so that a lasso is reported soon after the
   * search has expanded its states, at a cost of a third of one look at the end.
   */
  let lookAt = LASSO_LOOK_FIRST;
  const storedPaths = {
    pathTo: (id: number): E[] => pathTo(id),
    idOf: (s: Int32Array): number => {
      print(s, fp);
      return (numbered as NumberedFingerprintSet).idOf(fp[0], fp[1]);
    },
  };
  const result = (complete: boolean, stoppedBy: string | null = null): ExploreResult<E> => {
    // The last look, on every state expanded: not when the caller stopped the search (a memory bound, an interrupt).
    const callerStopped = stoppedBy !== null && stoppedBy !== 'violation' && stoppedBy !== 'max-states' && stoppedBy !== 'max-depth';
    if (steps !== null && !callerStopped && !(stoppedBy === 'violation' && stopAtFirst)) lassoFound(steps, lively, storedPaths);
    return searchResult(seen, index, { transitions, depth, frontierBytesMax: queueBytesMax }, violations, complete, stoppedBy, checked, lively, steps?.bytes ?? 0);
  };
  const propertyCount = system.always.length;
  const check = (s: Int32Array, i: number, changed: number): boolean => {
    for (let p = 0; p < propertyCount; p++) {
      // A property not yet violated held in every state stored so far, the parent among them.
      if (violated[p] === 1) continue;
      const v = system.check(s, p, changed);
      if (v !== null) {
        violated[p] = 1;
        violations.push({ violation: v, events: pathTo(i) });
        if (stopAtFirst) return true;
      }
    }
    return false;
  };
  if (check(start, 0, ALL_CHANGED)) return result(false, 'violation');
  watchAt(POSITION_SEARCH, 0);
  const asks = new CallerAsks(bounds, seen, lively, steps, progressEvery, stopEvery);
  // The path to the state `live` checks, made once (a closure per state would be garbage per state); visit calls it at once or not at all.
  let liveId = 0;
  const livePath = (): E[] => pathTo(liveId);
  /** The liveness checks of the state in `current`, number `id`; true to stop. */
  const live = (id: number): boolean => {
    if (lively === null) return false;
    stop = asks.growthRefused() ?? asks.stepsGrowthRefused();
    if (stop !== null) return true;
    liveId = id;
    if (lively.visit(current, livePath)) stop = lively.stopped ?? (stopAtFirst ? 'violation' : null);
    if (steps !== null) {
      steps.begin((lively.recordAs & ROOT) !== 0);
      recording = lively.recordAs !== 0;
    }
    return stop !== null;
  };
  /** Whether the steps of the state being expanded are recorded, and its events when the system gives none with a successor. */
  let recording = false;
  let eventsOfCurrent: readonly E[] | null = null;
  // States are numbered in discovery order, so a level ends at the state count it had when it began.
  let expanded = 0;
  let levelEnd = 1;
  let level = 0;
  let parent = 0;
  let stop: string | null = null;
  /**
   * Successors are taken in batches (a state's successors, in event order):
   * each is written into the batch and fingerprinted, then the batch's home
   * slots in the visited set are read once, so the processor fetches them
   * from memory side by side, and only then is each looked up and stored in
   * turn. One probe after another, each separated by a transition's work,
   * would wait for memory once per successor.
   */
  const batch = new Int32Array(BATCH_MAX * width);
  // One view per batch slot, made once (a view per successor would allocate).
  const slots = Array.from({ length: BATCH_MAX }, (_, b) => batch.subarray(b * width, (b + 1) * width));
  const batchPrints = new Uint32Array(BATCH_MAX * 2);
  const batchEvents = new Int32Array(BATCH_MAX);
  // The steady modes of each successor's step, when recorded.
  const batchModes = new Int32Array(BATCH_MAX);
  // The steady modes of each step, by its index and value (see StepModesCache).
  const stepModes = lively === null ? null : new StepModesCache<E>(lively);
  let batched = 0;
  // Partial-order reduction: the successors of the state being expanded that are taken (null: all).
  let keep: Uint8Array | null = null;
  const visited = (s: Int32Array): boolean => {
    print(s, fp);
    return seen.has(fp[0], fp[1]);
  };
  /** Successors are written straight into the batch: `out` is the next free slot. */
  const sink: SuccessorSink = {
    out: slots[0],
    take(ei: number, event?: unknown): boolean {
      if (keep !== null && keep[ei] === 0) return false;
      print(slots[batched], fp);
      batchPrints[2 * batched] = fp[0];
      batchPrints[2 * batched + 1] = fp[1];
      if (recording) batchModes[batched] = (stepModes as StepModesCache<E>).at(ei, event === undefined ? (eventsOfCurrent ??= system.events(current))[ei] : (event as E));
      batchEvents[batched++] = ei;
      if (batched === BATCH_MAX) return flush();
      sink.out = slots[batched];
      return false;
    },
  };
  /** Processes the batch in order; true to stop the search. */
  const flush = (): boolean => {
    const n = batched;
    batched = 0;
    sink.out = slots[0];
    for (let b = 0; b < n; b++) seen.prefetch(batchPrints[2 * b], batchPrints[2 * b + 1]);
    for (let b = 0; b < n; b++) {
      transitions++;
      // The set doubles on the add that finds it full, whether or not the fingerprint is new.
      if (seen.growthBytes > 0) {
        stop = asks.growthRefused();
        if (stop !== null) return true;
      }
      // The bound is met when a state past it would be stored: a world of exactly `statesMax` states is searched whole.
      if (seen.size >= statesMax && !seen.has(batchPrints[2 * b], batchPrints[2 * b + 1])) {
        stop = 'max-states';
        return true;
      }
      const fresh = seen.add(batchPrints[2 * b], batchPrints[2 * b + 1]);
      if (recording && batchModes[b] !== 0) (steps as SteadyGraph).edge((numbered as NumberedFingerprintSet).last, batchModes[b]);
      if (!fresh) continue;
      const state = slots[b];
      const id = index.push(parent, batchEvents[b]);
      depth = level + 1;
      if (check(state, id, changedSlots(state, current, width))) {
        stop = 'violation';
        return true;
      }
      queue.push(state);
      if (queue.bytes > queueBytesMax) queueBytesMax = queue.bytes;
      const size = seen.size;
      if (size % progressEvery === 0 || size % stopEvery === 0) {
        stop = asks.atCount(size, depth);
        if (stop !== null) return true;
      }
    }
    return false;
  };
  /**
   * The rest of the queue is the level of `depthMax`, whose successors are
   * not searched: the search is whole only if every one of them is a state
   * already stored (their transitions then count, as an unbounded search
   * counts them).
   */
  const cutAtDepth = (): ExploreResult<E> => {
    let fresh = false;
    let probed = 0;
    const probe: SuccessorSink = {
      out: new Int32Array(width),
      take: () => {
        probed++;
        print(probe.out, fp);
        fresh = !seen.has(fp[0], fp[1]);
        return fresh;
      },
    };
    // Every state of the last level is within the bound: each is checked for liveness, even once a successor beyond is known.
    while (queue.length > 0 && (!fresh || lively !== null)) {
      queue.shift(current);
      if (live(expanded++)) return result(false, stop);
      if (!fresh) system.expand(current, probe);
    }
    if (fresh) return result(false, 'max-depth');
    transitions += probed;
    return result(true);
  };
  try {
    while (queue.length > 0) {
      if (expanded === levelEnd) {
        if (steps !== null && stopAtFirst && expanded >= lookAt) {
          lookAt = nextLassoLook(expanded);
          if (lassoFound(steps, lively, storedPaths) && stopAtFirst) return result(false, 'violation');
        }
        level++;
        levelEnd = seen.size;
        watchAt(POSITION_SEARCH, level);
      }
      if (level === depthMax) return cutAtDepth();
      queue.shift(current);
      parent = expanded++;
      if (live(parent)) return result(false, stop);
      if (system.reduce !== undefined) keep = system.reduce(current, visited);
      eventsOfCurrent = null;
      system.expand(current, sink);
      if (stop === null) flush();
      if (stop !== null) return result(false, stop);
    }
  } catch (err) {
    markSearchError(err, level, () => pathTo(parent));
    throw err;
  }
  return result(true);
}
