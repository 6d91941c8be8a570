/**
 * The `eventually` properties on an exhaustive search. `check`'s liveness
 * phase stops the faults at some point of a run (`heal`) and lets the system
 * run until it is quiet: then `eventually` properties are checked, and a
 * system still busy at the phase's bound violates `quiet-after-healing`. The
 * explorer asks the same questions of every state it stores:
 *
 * - Quiet: would the system stay put if faults stopped here? The state is
 *   healed (crashed processes restart) and asked the system's own quiet test
 *   (`isQuiet`: no event enabled, or the system says no step would change
 *   anything durable), exactly as the liveness phase asks it. Fault events
 *   the remaining budget still allows do not count: once faults stop they
 *   are never taken. At every quiet state the `eventually` properties are
 *   checked; a violation's trace is the shortest path to the state, then the
 *   switch to the liveness phase.
 * - Retrying forever: once faults stop, the environment is steady: crashes,
 *   corruptions, producer and operator actions stop, and the broker gives
 *   one answer to every POST (healthy, or a failure that persists): each
 *   such answer is a steady mode. A lasso under a mode is a reachable cycle
 *   of steps the system takes by itself (the system says which events are
 *   such steps under the mode) through states none of which is quiet, from
 *   which no schedule of those steps reaches a quiet state: a bottom
 *   strongly connected component of that step graph, quiet states being
 *   sinks. A random liveness phase that enters one never becomes quiet; a
 *   cycle some other process could leave (one engine skipping a file while
 *   another holds its claim) is not one. Components are found by Tarjan's
 *   algorithm from each stored state (each state is finished with once per
 *   mode); the trace is the shortest path to a state of the component, the
 *   switch to the liveness phase, and the shortest cycle through that state
 *   repeated past the liveness phase's bound, so `replay` reproduces it.
 *   The packed explorer records the steps instead and finds components on
 *   them (`stored`: see docs/properties.md, 'How explore finds a lasso'),
 *   with a small budget of such region searches ahead for early answers.
 */
import { FingerprintFlags, FingerprintIndex } from './fingerprint-flags.ts';
import type { FoundViolation } from './explore.ts';
import type { Violation } from './system.ts';
import { busyAfterHealing } from './random.ts';
import type { StoredComponent } from './steady-graph.ts';

/** The name of the property a lasso violates. */
export const QUIET_AFTER_HEALING = 'quiet-after-healing';

/** The steps past the state being expanded that an error of its liveness checks was met after (see `LivenessSearch.regionTail`). */
const livenessTails = new WeakMap<object, unknown[]>();

/**
 * The steps from the state being expanded to where `err` was thrown, when
 * the liveness search's cycle search met it: the switch to the liveness
 * phase (null), then steady steps. Undefined for an error met at the state
 * itself.
 */
export function livenessTailOf(err: unknown): unknown[] | undefined {
  return typeof err === 'object' && err !== null ? livenessTails.get(err) : undefined;
}

/** What a system tells the explorer about its liveness phase. */
export interface SteadyLiveness<S, E> {
  /** The `eventually` properties checked at quiet states. */
  readonly properties: readonly string[];
  /** The steady environments once faults stop (the outbox: each broker answer that can persist). */
  readonly modes: readonly string[];
  /** Once faults stop in `s`: 'busy' when the system would not be quiet, else the first `eventually` violation, or null. */
  atRest(s: S): Violation | null | 'busy';
  /**
   * Optional, a cheap test: true only where {@link atRest} answers 'busy'
   * (false says nothing). A busy state outside the steady states needs
   * nothing of the search, not even its print (a third to a half of the states of the anchor searches).
   */
  busy?(s: S): boolean;
  /** True when `s` is a state the liveness phase itself passes through (the outbox: every engine alive), where lassos are looked for. */
  steadyState(s: S): boolean;
  /** True when `e` is a step the system takes by itself under steady mode `m` (not a fault, not a producer or operator action). */
  steady(e: E, m: number): boolean;
  /** Steps the liveness phase allows before a busy system violates quiet-after-healing. */
  readonly healStepsMax: number;
}

/** The state graph as the liveness search walks it (each explorer gives its own). */
export interface LivenessGraph<S, E> {
  /** Writes a state's 64-bit fingerprint (as the explorer's visited set has it) into `out`. */
  print(s: S, out: Uint32Array): void;
  /** The successors of `s` by the events `keep` accepts, in event order. */
  successors(s: S, keep: (e: E) => boolean): { event: E; state: S }[];
  /**
   * Optional, the same without a list: calls `visit` with each successor by
   * an event `keep` accepts, in event order. The state it is given may be a
   * scratch value, valid during the call only: {@link retain} keeps it.
   */
  eachSuccessor?(s: S, keep: (e: E) => boolean, visit: (event: E, state: S) => void): void;
  /** A lasting copy of a state `eachSuccessor` gave (with it). */
  retain?(s: S): S;
  /** Optional: a compact first-in first-out store for a cycle search's states (else they are kept as retained values). */
  stateQueue?(): RegionQueue<S>;
  /** The shortest path of events from the initial state to a state whose fingerprint (see {@link printKey}) is in `targets`, or null. */
  shortestPathTo(targets: ReadonlySet<string>): E[] | null;
  /** The state the events lead to from the initial state. */
  stateAfter(events: readonly E[]): S;
  /**
   * Under symmetry reduction (prints of classes of states), a cycle found
   * from `entry` may end at another state of its class: the events of the
   * real cycle, which ends at `entry` (see `closeCycle` in explore.ts).
   */
  closeCycle?(entry: S, cycle: E[]): E[];
}

/** The states of one cycle search, in the order found, each expanded once. */
export interface RegionQueue<S> {
  /** Keeps a copy of `s` (which may be a scratch value). */
  push(s: S): void;
  /** The oldest state not yet taken, valid until the next call of `shift`; removes it. */
  shift(): S;
  /** Forgets every state. */
  clear(): void;
}

/** Most states one cycle search holds (on the heap) before it gives up, saying so. */
export const LASSO_REGION_MAX = 200_000;

/**
 * The budget of the regions searched ahead when the explorer records steps
 * (see `lookAheadFrom`): what a clean search pays for early lassos. Each
 * state of a region costs about what a state of the search costs (most are
 * expanded again by the search later), so the budget is kept small.
 */
export const LOOK_AHEAD_STATES = 1024;

/** States of a region between two looks at the caller's stop reason: a region may be large, and is held on the heap. */
const POLL_EVERY = 1000;

/** {@link LivenessSearch.recordAs}: the state's steps are to be recorded. */
export const RECORD = 1;
/** {@link LivenessSearch.recordAs}: a lasso may start at the state (the liveness phase passes through it). */
export const ROOT = 2;

const KNOWN = 1;
const QUIET = 2;
/** The state's region was searched for cycles under every mode. */
const DONE = 4;

/** The steady modes of each edge of a region or of the recorded steps, as bits. */
export type ModeMasks = Uint8Array | Int32Array;

/**
 * An array of `length` edges' modes: bytes where every mask of `modes`
 * modes fits one (the outbox has 8, one per steady broker answer), a
 * quarter of the memory the recorded steps' masks took as 32-bit integers.
 */
export function maskArray(modes: number, length: number): ModeMasks {
  return modes <= 8 ? new Uint8Array(length) : new Int32Array(length);
}

/** Event indices whose last events' modes a {@link StepModesCache} keeps, and events kept per index (powers of two). */
const MODE_SETS = 64;
const MODE_WAYS = 4;

/**
 * The steady modes of the steps an explorer records (what
 * {@link LivenessSearch.stepModes} answers), kept for the events last seen
 * at each event index, a few per index, and found by identity. States
 * expanded one after another are mostly siblings, whose events are mostly
 * the same values at the same or nearby indices: most steps find their
 * modes here in a few comparisons instead of a map lookup (about 40 ns
 * each, for every successor of a recorded state).
 */
export class StepModesCache<E> {
  // A value no system gives as an event marks an empty way.
  private readonly events: unknown[] = Array.from({ length: MODE_SETS * MODE_WAYS }, () => StepModesCache.EMPTY);
  private readonly modes = new Int32Array(MODE_SETS * MODE_WAYS);
  /** Per index, the way its next miss replaces (round robin). */
  private readonly next = new Uint8Array(MODE_SETS);
  private static readonly EMPTY = {};

  /**
   * `source` answers on a miss: an object with a method, not a closure made
   * per search, so that optimised code calling it serves every search (a
   * new closure at a call site throws that code away: 'wrong call target').
   */
  constructor(private readonly source: { stepModes(e: E): number }) {}

  /** The modes of `e`, the event of index `index` among a state's successors. */
  at(index: number, e: E): number {
    const set = index & (MODE_SETS - 1);
    const base = set * MODE_WAYS;
    for (let w = 0; w < MODE_WAYS; w++) if (this.events[base + w] === e) return this.modes[base + w];
    const mask = this.source.stepModes(e);
    const at = base + this.next[set];
    this.next[set] = (this.next[set] + 1) & (MODE_WAYS - 1);
    this.events[at] = e;
    this.modes[at] = mask;
    return mask;
  }
}

/** A fingerprint as a string key. */
export function printKey(p: Uint32Array): string {
  return `${p[0]}:${p[1]}`;
}

/** The liveness checks of one search: call {@link visit} on every stored state, in breadth-first order. */
export class LivenessSearch<S, E> {
  readonly found: FoundViolation<E>[] = [];
  /** Why the cycle search gave up (a region beyond {@link LASSO_REGION_MAX}), or null. */
  cut: string | null = null;
  /** The caller's reason to stop the whole search, given while a region was searched (see `poll`), or null. */
  stopped: string | null = null;
  private readonly flags = new FingerprintFlags();
  private readonly violated = new Set<string>();
  private readonly fp = new Uint32Array(2);
  /** The modes an event is a step of, as bits, per event (events are shared values). */
  private readonly modesOf = new Map<E, number>();
  /** The last event {@link maskOf} answered for, and its modes: a successor's event was just asked of `keep`. */
  private lastEvent: E | undefined = undefined;
  private lastMask = 0;
  private readonly maskOf = (e: E): number => this.modesOfEvent(e);
  /** {@link maskOf}'s answer, in a method that is the same function in every search (see StepModesCache's constructor). */
  private modesOfEvent(e: E): number {
    if (e === this.lastEvent) return this.lastMask;
    let mask = this.modesOf.get(e);
    if (mask === undefined) {
      mask = 0;
      for (let m = 0; m < this.spec.modes.length; m++) if (this.spec.steady(e, m)) mask |= 1 << m;
      this.modesOf.set(e, mask);
    }
    this.lastEvent = e;
    this.lastMask = mask;
    return mask;
  }
  private readonly isStep = (e: E): boolean => this.maskOf(e) !== 0;
  /** The cycle search's states: made once, cleared per region. */
  private readonly queue: RegionQueue<S>;
  // A region's edges, reused from region to region (see `region`).
  private readonly first: number[] = [];
  private readonly targets: number[] = [];
  private readonly masks: number[] = [];
  /**
   * Each print's halves as signed 32-bit values (`| 0`): small integers to
   * V8 on 64-bit machines, so the array keeps one elements kind (halves of
   * 2^31 and above changed it, and threw away the code that filled it:
   * 'lost precision'). Read back with `>>> 0`.
   */
  private readonly prints: number[] = [];
  /** Per region state, the state it was found from and by which step (the root's unused): where a region's search threw (see regionTail). */
  private readonly parents: number[] = [];
  private readonly via: (E | null)[] = [];
  /** The region state being expanded, and the step to the state whose quiet test is being asked (null between). */
  private source = 0;
  private asking: E | null = null;
  private readonly tarjan = new TarjanScratch();
  /** What the last {@link quietAt} that asked the system got (undefined when it read the flags). */
  private verdict: Violation | null | 'busy' | undefined = undefined;

  /**
   * With `stored`, what the last {@link visit} found of its state: 0 when
   * its steps need not be recorded (quiet, or quiet-after-healing already
   * violated), else {@link RECORD}, with {@link ROOT} when a lasso may start there.
   */
  recordAs = 0;
  /** States the cycle searches of regions took, in all. */
  regionStates = 0;

  constructor(
    private readonly spec: SteadyLiveness<S, E>,
    private readonly graph: LivenessGraph<S, E>,
    private readonly regionMax = LASSO_REGION_MAX,
    /** Asked every {@link POLL_EVERY} states of a region: a reason to stop the whole search (a memory bound), or null. */
    private readonly poll: () => string | null = () => null,
    /**
     * The explorer records the steps of busy states (see `steady-graph.ts`)
     * and asks {@link lassoOnStored} for lassos: {@link visit} then checks
     * quiet states only, and searches no region.
     */
    private readonly stored = false,
    /** With `stored`: the states the regions searched ahead may take in all (see lookAheadFrom). */
    private readonly lookAhead: number = LOOK_AHEAD_STATES,
  ) {
    if (spec.modes.length > 30) throw new Error('liveness search: at most 30 steady modes');
    this.queue = graph.stateQueue?.() ?? objectQueue(graph);
  }

  /** Property names this search checks. */
  get checked(): string[] {
    return [...this.spec.properties, QUIET_AFTER_HEALING];
  }

  /** Whether quiet-after-healing is still to be looked for (no lasso found yet). */
  get lassoLeft(): boolean {
    return !this.violated.has(QUIET_AFTER_HEALING);
  }

  /** Bytes of the flags kept per state. */
  get bytes(): number {
    return this.flags.bytes;
  }

  /** Bytes the flags table would allocate when it next grows (see the explorer's `beforeGrowth`). */
  get growthBytes(): number {
    return this.flags.growthBytes;
  }

  /** The steady modes `e` is a step of, as bits (0: not a step the system takes by itself). */
  stepModes(e: E): number {
    return this.modesOfEvent(e);
  }

  /** Checks a stored state; `path` gives the events that reach it. True when a new violation was found (or `stopped` was set). */
  visit(s: S, path: () => E[]): boolean {
    if (this.stored) return this.visitRecorded(s, path);
    // Not quiet, and no cycle search from it: nothing to check or remember (its flags would only spare a cheap test).
    if (this.spec.busy?.(s) === true && !this.spec.steadyState(s)) return this.stopped !== null;
    const before = this.found.length;
    const eventuallyLeft = this.violated.size < this.spec.properties.length || this.spec.properties.some((p) => !this.violated.has(p));
    const p = this.fp;
    this.graph.print(s, p);
    this.verdict = undefined;
    // One probe of the flags for both questions below (quiet, and finished with); quietAt sets only KNOWN and QUIET.
    const f = this.flags.get(p[0], p[1]);
    const quiet = (f & KNOWN) !== 0 ? (f & QUIET) !== 0 : this.quietAt(s, p);
    if (eventuallyLeft && quiet) {
      // The verdict quietAt just computed, if it did (a state met first in a cycle search has only its flags).
      const v = this.verdict ?? this.spec.atRest(s);
      if (v !== 'busy' && v !== null && !this.violated.has(v.property)) {
        this.violated.add(v.property);
        this.found.push({ violation: v, events: path(), healed: { mode: null, cycle: [] } });
      }
    }
    if (!this.violated.has(QUIET_AFTER_HEALING) && this.cut === null && this.stopped === null && !quiet && this.spec.steadyState(s)) {
      // `p` still holds the print of `s` (quietAt reads no other).
      if ((f & DONE) === 0) {
        const lasso = this.region(s, p);
        if (lasso !== null) this.lasso(lasso.component, lasso.mode);
      }
    }
    if (this.stopped !== null) return true;
    return this.found.length > before;
  }

  /**
   * {@link visit} when the explorer records steps: each state is visited
   * once, so nothing is remembered per print; a busy state's steps are to
   * be recorded (see {@link recordAs}), a quiet one's `eventually`
   * properties checked.
   */
  private visitRecorded(s: S, path: () => E[]): boolean {
    const lassoLeft = !this.violated.has(QUIET_AFTER_HEALING);
    const root = lassoLeft && this.spec.steadyState(s) ? ROOT : 0;
    // Asked afresh even of a state a look ahead met (its flags would cost a print of every state to read).
    const v = this.spec.busy?.(s) === true ? 'busy' : this.spec.atRest(s);
    if (v === 'busy') {
      this.recordAs = lassoLeft ? RECORD | root : 0;
      const before = this.found.length;
      if (root !== 0 && this.regionStates < this.lookAhead) this.lookAheadFrom(s);
      return this.found.length > before || this.stopped !== null;
    }
    this.recordAs = 0;
    if (v === null || this.violated.has(v.property)) return false;
    this.violated.add(v.property);
    this.found.push({ violation: v, events: path(), healed: { mode: null, cycle: [] } });
    return true;
  }

  /**
   * With recorded steps, lassos are found once the search has expanded every
   * state of a bottom component, which can be long after its first state (a
   * small flaw's lasso, seen from state 4 of a search of ten thousand). So
   * the first busy states also get the cycle search of the region ahead of
   * them, as without recording, until the regions have taken
   * {@link lookAhead} states in all: a flaw near the start is answered at
   * once, and a clean search pays only the budget.
   */
  private lookAheadFrom(s: S): void {
    const p = this.fp;
    this.graph.print(s, p);
    if ((this.flags.get(p[0], p[1]) & DONE) !== 0) return;
    const lasso = this.region(s, p, Math.min(this.regionMax, this.lookAhead - this.regionStates));
    if (lasso === null) return;
    this.lasso(lasso.component, lasso.mode);
    this.recordAs = 0;
  }

  /**
   * Reports the lasso of a bottom component found on the recorded steps,
   * if quiet-after-healing is not violated yet: the stem is the shortest
   * path to the component (to its first state found, breadth first), the
   * cycle the shortest one through that state. True when reported.
   */
  lassoOnStored(component: StoredComponent, on: StoredPaths<S, E>): boolean {
    if (this.violated.has(QUIET_AFTER_HEALING)) return false;
    const members = new Set(component.states);
    let entryId = component.states[0];
    for (const id of component.states) if (id < entryId) entryId = id;
    const stem = on.pathTo(entryId);
    const entry = this.graph.stateAfter(stem);
    const found = this.shortestCycle(entry, entryId, on.idOf, (id) => members.has(id), component.mode);
    this.report(stem, this.graph.closeCycle?.(entry, found) ?? found, component.mode);
    return true;
  }

  /** Whether the system would be quiet once faults stop in `s`, whose fingerprint is `p` (remembered per state). */
  private quietAt(s: S, p: Uint32Array): boolean {
    const f = this.flags.get(p[0], p[1]);
    if ((f & KNOWN) !== 0) return (f & QUIET) !== 0;
    this.verdict = this.spec.atRest(s);
    const quiet = this.verdict !== 'busy';
    this.flags.set(p[0], p[1], KNOWN | (quiet ? QUIET : 0));
    return quiet;
  }

  /** {@link quietAt} of a region's state `t`, reached by `event` from the state being expanded (noted for {@link regionTail}). */
  private quietAfter(event: E, t: S, p: Uint32Array): boolean {
    this.asking = event;
    const quiet = this.quietAt(t, p);
    this.asking = null;
    return quiet;
  }

  /**
   * The region of `root`: every state its steps reach under any mode, but
   * for quiet states and states an earlier region finished with (edges to
   * those leave the region). Each state of it is expanded once, its edges
   * kept with the modes they belong to; then each mode's components are
   * found on those edges by Tarjan's algorithm. Returns the first bottom
   * component of a mode that has a cycle, or null; the region's states are
   * then done for every mode. A state of an earlier region is no part of
   * a new component under any mode: all it reaches under a mode was in its
   * region, whose components were whole.
   */
  private region(root: S, rootPrint: Uint32Array, regionMax = this.regionMax): { component: Set<string>; mode: number } | null {
    try {
      return this.regionSearch(root, rootPrint, regionMax);
    } catch (err) {
      if (typeof err === 'object' && err !== null) livenessTails.set(err, this.regionTail());
      throw err;
    }
  }

  /**
   * After a region's search threw (a rule set's decision broke in a steady
   * step, or in the quiet test of a state the region reached): the steps
   * from its root to where, once faults stop (null first), by the parent
   * links the search keeps. So the search's position (see
   * {@link livenessTailOf}) reaches the broken decision; the states are not
   * stepped again (a system a decision broke in may hold half-made caches).
   */
  private regionTail(): (E | null)[] {
    const { parents, via } = this;
    const out: E[] = this.asking === null ? [] : [this.asking];
    for (let j = this.source; j > 0; j = parents[j]) out.push(via[j] as E);
    return [null, ...out.reverse()];
  }

  /** {@link region}'s search. */
  private regionSearch(root: S, rootPrint: Uint32Array, regionMax: number): { component: Set<string>; mode: number } | null {
    const modes = this.spec.modes.length;
    const local = new FingerprintIndex(4);
    const { first, targets, masks, prints, queue, parents, via } = this;
    first.length = 0;
    targets.length = 0;
    masks.length = 0;
    prints.length = 0;
    parents.length = 0;
    via.length = 0;
    this.source = 0;
    this.asking = null;
    queue.clear();
    const p = new Uint32Array(2);
    let cut = false;
    /**
     * The modes of the edges that go back inside the region: from the state
     * of index `source` to one of index at most `source` (states are numbered
     * as found). A cycle of a mode has such an edge (its indices cannot all
     * rise), so a mode without one has no cycle here and its Tarjan run,
     * which would find none, is skipped (most regions are chains of steps).
     */
    let back = 0;
    let source = 0;
    /**
     * The modes some edge of the region (inside or leaving it) belongs to
     * without belonging to every mode (the outbox: a broker's answer). A mode
     * outside it has as its edges exactly the edges of every mode, as every
     * other such mode does: one Tarjan run answers for all of them.
     */
    const every = (1 << modes) - 1;
    let specific = 0;
    const add = (state: S, from: number, event: E | null): number => {
      prints.push(p[0] | 0, p[1] | 0);
      parents.push(from);
      via.push(event);
      queue.push(state);
      return local.add(p[0], p[1]);
    };
    const maskOf = this.maskOf;
    const flags = this.flags;
    p[0] = rootPrint[0];
    p[1] = rootPrint[1];
    add(root, -1, null);
    const visitEdge = (event: E, t: S): void => {
      if (cut) return;
      this.graph.print(t, p);
      let j = local.get(p[0], p[1]);
      if (j < 0) {
        // One probe of the flags for both questions: finished with, and quiet (see quietAt).
        const f = flags.get(p[0], p[1]);
        if ((f & DONE) !== 0) j = -1;
        else if ((f & KNOWN) !== 0 ? (f & QUIET) !== 0 : this.quietAfter(event, t, p)) j = -1;
        else if (local.size >= regionMax) {
          cut = true;
          return;
        } else j = add(t, source, event);
      }
      const mask = maskOf(event);
      if (j >= 0 && j <= source) back |= mask;
      if (mask !== every) specific |= mask;
      targets.push(j);
      masks.push(mask);
    };
    for (let i = 0; i < local.size; i++) {
      if (i % POLL_EVERY === POLL_EVERY - 1) {
        this.stopped = this.poll();
        if (this.stopped !== null) return null;
      }
      first.push(targets.length);
      source = i;
      this.source = i;
      this.each(queue.shift(), this.isStep, visitEdge);
      if (cut) {
        this.regionStates += local.size;
        // A look ahead (see visitRecorded) that ran out of its budget proves nothing and is dropped: the recorded steps will answer.
        if (!this.stored) this.cut = `the cycle search reached ${this.regionMax.toLocaleString('en-US')} states from one state: quiet-after-healing not searched beyond`;
        return null;
      }
    }
    first.push(targets.length);
    this.regionStates += local.size;
    // Whether a mode of only the shared edges was searched and had no bottom cycle.
    let sharedClean = false;
    // The modes with a bottom cycle somewhere in the region, found once for all modes (-1: not yet asked).
    let stuck = -1;
    // The edges as typed arrays, as the recorded steps give them: one kind of array keeps the two passes' element reads monomorphic.
    let edges: [Int32Array, Int32Array, ModeMasks] | null = null;
    for (let m = 0; m < modes; m++) {
      if ((back & (1 << m)) === 0) continue;
      if (edges === null) {
        const typed = maskArray(modes, masks.length);
        typed.set(masks);
        edges = [Int32Array.from(first), Int32Array.from(targets), typed];
      }
      if (stuck === -1) stuck = stuckModes(edges[0], edges[1], edges[2], every, this.tarjan);
      if ((stuck & (1 << m)) === 0) continue;
      const shared = (specific & (1 << m)) === 0;
      if (shared && sharedClean) continue;
      const component = bottomCycle(edges[0], edges[1], edges[2], 1 << m, this.tarjan);
      if (component !== null) return { component: new Set(component.map((i) => `${prints[2 * i] >>> 0}:${prints[2 * i + 1] >>> 0}`)), mode: m };
      if (shared) sharedClean = true;
    }
    for (let i = 0; i < local.size; i++) flags.set(prints[2 * i] >>> 0, prints[2 * i + 1] >>> 0, DONE);
    return null;
  }

  /** The successors of `s` by the events `keep` accepts, each given to `visit` (a scratch state: see `LivenessGraph.retain`). */
  private each(s: S, keep: (e: E) => boolean, visit: (event: E, state: S) => void): void {
    if (this.graph.eachSuccessor !== undefined) this.graph.eachSuccessor(s, keep, visit);
    else for (const { event, state } of this.graph.successors(s, keep)) visit(event, state);
  }

  /** Records the lasso of a component: shortest path to it, then the shortest cycle through the state it reaches. */
  private lasso(component: Set<string>, m: number): void {
    const stem = this.graph.shortestPathTo(component);
    if (stem === null) throw new Error('liveness search: a component found from a stored state is unreachable');
    const entry = this.graph.stateAfter(stem);
    const found = this.cycleThrough(entry, component, m);
    this.report(stem, this.graph.closeCycle?.(entry, found) ?? found, m);
  }

  /** Records quiet-after-healing's violation: the stem, the switch to the liveness phase under mode `m`, the cycle. */
  private report(stem: E[], cycle: E[], m: number): void {
    this.violated.add(QUIET_AFTER_HEALING);
    const busy = busyAfterHealing(this.spec.healStepsMax);
    const violation: Violation = {
      ...busy,
      detail: `${busy.detail}: with the broker answering ${this.spec.modes[m]}, a cycle of ${cycle.length} step${cycle.length === 1 ? '' : 's'} repeats forever and no schedule leaves it`,
    };
    this.found.push({ violation, events: stem, healed: { mode: this.spec.modes[m], cycle } });
  }

  /** The shortest cycle of mode-`m` steps from `entry` back to it, within the component (keys are prints). */
  private cycleThrough(entry: S, component: ReadonlySet<string>, m: number): E[] {
    const p = new Uint32Array(2);
    this.graph.print(entry, p);
    const keyOf = (t: S): string => {
      this.graph.print(t, p);
      return printKey(p);
    };
    return this.shortestCycle(entry, printKey(p), keyOf, (k) => component.has(k), m);
  }

  /** The shortest cycle of mode-`m` steps from `entry` (key `home`) back to it through states whose keys are `inside`, breadth first. */
  private shortestCycle<K>(entry: S, home: K, keyOf: (s: S) => K, inside: (k: K) => boolean, m: number): E[] {
    const keep = (e: E): boolean => this.spec.steady(e, m);
    const back = new Map<K, { from: K; event: E }>();
    let level: { key: K; state: S }[] = [{ key: home, state: entry }];
    while (level.length > 0) {
      const next: { key: K; state: S }[] = [];
      for (const { key, state } of level) {
        for (const { event, state: t } of this.graph.successors(state, keep)) {
          const k = keyOf(t);
          if (!inside(k) || back.has(k)) continue;
          back.set(k, { from: key, event });
          if (k === home) return unwind(back, home);
          next.push({ key: k, state: t });
        }
      }
      level = next;
    }
    throw new Error('liveness search: no cycle through a state of a cyclic component');
  }
}

/** The events of a cycle found breadth first from `home` back to it, by the links `back` (each state's predecessor and event). */
function unwind<K, E>(back: ReadonlyMap<K, { from: K; event: E }>, home: K): E[] {
  const events: E[] = [];
  for (let at = home; ; ) {
    const b = back.get(at) as { from: K; event: E };
    events.push(b.event);
    at = b.from;
    if (at === home) break;
  }
  return events.reverse();
}

/** What {@link LivenessSearch.lassoOnStored} needs of the explorer that recorded the steps. */
export interface StoredPaths<S, E> {
  /** The events of the explorer's shortest path to its state number `id`. */
  pathTo(id: number): E[];
  /** The explorer's number of a state (of its class, under symmetry), or -1 when not stored. */
  idOf(s: S): number;
}

/**
 * The events of a trace that reproduces a liveness violation as `check`'s
 * liveness phase sees it: the path, the switch to the liveness phase (null),
 * and a lasso's cycle repeated until the phase's bound of `healStepsMax`
 * steps is passed (the switch counts as one).
 */
export function livenessTraceEvents<E>(v: FoundViolation<E>, healStepsMax: number): (E | null)[] {
  if (v.healed === undefined) return v.events;
  const events: (E | null)[] = [...v.events, null];
  const cycle = v.healed.cycle;
  if (cycle.length === 0) return events;
  for (let n = 0; n < healStepsMax; n += cycle.length) events.push(...cycle);
  return events;
}

/** The arrays of one {@link bottomCycle} or {@link stuckModes} run, kept for the next (most regions are small, and many). */
export class TarjanScratch {
  index = new Int32Array(16);
  low = new Int32Array(16);
  next = new Int32Array(16);
  onStack = new Uint8Array(16);
  exit = new Uint8Array(16);
  readonly stack: number[] = [];
  readonly call: number[] = [];
  /** {@link stuckModes}' reversed edges (sources and masks, by target), of room for `edges` edges. */
  sources = new Int32Array(16);
  sourceMasks = new Int32Array(16);

  /** Room for `edges` reversed edges. */
  reserveEdges(edges: number): void {
    if (edges <= this.sources.length) return;
    let size = this.sources.length;
    while (size < edges) size *= 2;
    this.sources = new Int32Array(size);
    this.sourceMasks = new Int32Array(size);
  }

  /** Room for `n` states in every array ({@link bottomCycle}). */
  reserve(n: number): void {
    this.index = roomy(this.index, n);
    this.low = roomy(this.low, n);
    this.next = roomy(this.next, n);
    this.onStack = roomy(this.onStack, n);
    this.exit = roomy(this.exit, n);
  }
}

/**
 * `a`, or an empty array of its kind, doubled from its length, with room
 * for `n` elements. Arrays grow one by one as each is needed: the recorded
 * steps' last look at 3 engines and 2,000,000 states needs only a byte per
 * state of them (see stuckModes), where growing them all took 29 MB.
 */
function roomy<A extends Int32Array | Uint8Array>(a: A, n: number): A {
  if (n <= a.length) return a;
  let size = Math.max(a.length, 16);
  while (size < n) size *= 2;
  return (a instanceof Uint8Array ? new Uint8Array(size) : new Int32Array(size)) as A;
}

/** A {@link RegionQueue} of retained values, for graphs without a compact one. */
function objectQueue<S, E>(graph: LivenessGraph<S, E>): RegionQueue<S> {
  let states: S[] = [];
  let head = 0;
  return {
    push: (s) => void states.push(graph.retain?.(s) ?? s),
    shift: () => states[head++],
    clear: () => {
      states = [];
      head = 0;
    },
  };
}

/**
 * Tarjan's algorithm (iterative) over a region's edges that carry `mode`:
 * the states of the first component with a cycle and no edge leaving it,
 * or null. The edges of state i are (targets[k], masks[k]) for k from
 * first[i] to first[i + 1]; a target outside 0 to n - 1 (-1 in a region:
 * a state of no region; n and above: a state not yet expanded) is a way
 * out. With `roots`,
 * only components reached from a state marked 1 there.
 */
export function bottomCycle(first: Int32Array, targets: Int32Array, masks: ModeMasks, mode: number, scratch = new TarjanScratch(), roots?: Uint8Array): number[] | null {
  const n = first.length - 1;
  scratch.reserve(n);
  const { index, low, next, onStack, exit, stack, call } = scratch;
  for (let i = 0; i < n; i++) {
    index[i] = -1;
    next[i] = first[i];
    onStack[i] = 0;
    exit[i] = 0;
  }
  stack.length = 0;
  call.length = 0;
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] >= 0 || (roots !== undefined && roots[root] === 0)) continue;
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    call.push(root);
    while (call.length > 0) {
      const v = call[call.length - 1];
      if (next[v] < first[v + 1]) {
        const k = next[v]++;
        if ((masks[k] & mode) === 0) continue;
        const w = targets[k];
        if (w < 0 || w >= n) exit[v] = 1;
        else if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          call.push(w);
        } else if (onStack[w] === 1) low[v] = Math.min(low[v], index[w]);
        else exit[v] = 1;
        continue;
      }
      call.pop();
      const parent = call.length > 0 ? call[call.length - 1] : -1;
      if (low[v] !== index[v]) {
        if (parent >= 0) low[parent] = Math.min(low[parent], low[v]);
        continue;
      }
      // v roots a component: the states above it on the stack.
      const members: number[] = [];
      let x: number;
      do {
        x = stack.pop() as number;
        onStack[x] = 0;
        members.push(x);
      } while (x !== v);
      if (parent >= 0) exit[parent] = 1;
      let selfLoop = false;
      for (let k = first[v]; k < first[v + 1]; k++) if (targets[k] === v && (masks[k] & mode) !== 0) selfLoop = true;
      if ((members.length > 1 || selfLoop) && !members.some((i) => exit[i] === 1)) return members;
    }
  }
  return null;
}

/**
 * The modes (bits of `modes`) under which {@link bottomCycle} finds a
 * component, all of them found in one pass over the region's edges, which
 * one run of bottomCycle per mode took. Under mode m a state is free when
 * its edges of the mode reach an edge leaving the region (target -1) or a
 * state with no edge of the mode. A state that is not free reaches only
 * states with an edge of the mode, none leaving: they hold a component that
 * no edge leaves, and every state of it has an edge inside it, so it has a
 * cycle. A state of such a component is not free. So a mode has one exactly
 * where some state is not free under it. Freedom is propagated backwards
 * along the edges, every mode at once as bits.
 */
/**
 * Sweeps {@link stuckModes} tries before it propagates along reversed edges
 * (the explorer's recorded steps settled in 4 to 8; a sweep over settled
 * states costs little, a reversed copy of the edges much more).
 */
const SWEEPS_MAX = 16;

export function stuckModes(first: Int32Array, targets: Int32Array, masks: ModeMasks, modes: number, scratch = new TarjanScratch()): number {
  const n = first.length - 1;
  /**
   * Per state, its free modes: in bytes while the modes fit one (`exit`,
   * which bottomCycle sets afresh), a quarter of the memory the sweeps'
   * scattered reads of targets' freedom go to (the recorded steps' last look
   * at 3 engines read 7 MB of 32-bit words), else in `index`.
   */
  let free: ModeMasks;
  if (modes <= 0xff) free = scratch.exit = roomy(scratch.exit, n);
  else free = scratch.index = roomy(scratch.index, n);
  /**
   * Freedom flows from a state's targets to it. States are numbered as
   * found, so most edges lead to a later state: sweeps from the last state
   * to the first take each such edge after its target is final, and a few
   * sweeps often settle every state (a sweep that changes nothing proves
   * it). Sequential reads of the edges, and no reversed copy of them; only
   * where sweeps do not settle is the rest propagated along reversed edges.
   *
   * The first sweep also finds each state's own freedom (its modes with an
   * edge leaving the region, or with no edge), so the edges are read once
   * less: a state not yet swept reads as not free, which only leaves to the
   * next sweeps what they would find anyway (freedom only grows, to the
   * same least fixed point).
   */
  free.fill(0, 0, n);
  for (let v = n - 1; v >= 0; v--) {
    let has = 0;
    let leaves = 0;
    let f = 0;
    for (let k = first[v]; k < first[v + 1]; k++) {
      const mask = masks[k];
      has |= mask;
      const w = targets[k];
      if (w < 0 || w >= n) leaves |= mask;
      else f |= free[w] & mask;
    }
    free[v] = ((leaves | ~has) & modes) | f;
  }
  for (let sweep = 1; sweep < SWEEPS_MAX; sweep++) {
    let changed = false;
    for (let v = n - 1; v >= 0; v--) {
      let f = free[v];
      if (f === modes) continue;
      for (let k = first[v]; k < first[v + 1]; k++) {
        const w = targets[k];
        if (w >= 0 && w < n) f |= free[w] & masks[k];
      }
      if (f !== free[v]) {
        free[v] = f;
        changed = true;
      }
    }
    if (!changed) {
      let stuck = 0;
      for (let v = 0; v < n; v++) stuck |= ~free[v] & modes;
      return stuck;
    }
  }
  // Each state's count of edges in, counted only here, where sweeps did not settle: its random writes, one per edge, were a tenth of the time of a pass that settled (3 engines, by profile).
  // Per state: where its reversed edges start (`next`), whether it waits in the work list (`onStack`).
  const start = (scratch.next = roomy(scratch.next, n));
  const fill = (scratch.low = roomy(scratch.low, n));
  const queued = (scratch.onStack = roomy(scratch.onStack, n));
  scratch.reserveEdges(targets.length);
  const { sources, sourceMasks } = scratch;
  const work = scratch.stack;
  work.length = 0;
  for (let v = 0; v <= n && v < start.length; v++) start[v] = 0;
  for (let k = first[0]; k < first[n]; k++) {
    const w = targets[k];
    if (w >= 0 && w + 1 < n) start[w + 1]++;
  }
  // Prefix sums: the reversed edges of state w are sources[start[w] .. start[w + 1]) (start[n] is not kept: w + 1 < n above).
  for (let w = 1; w < n; w++) start[w] += start[w - 1];
  for (let w = 0; w < n; w++) fill[w] = start[w];
  for (let v = 0; v < n; v++) {
    for (let k = first[v]; k < first[v + 1]; k++) {
      const w = targets[k];
      if (w < 0 || w >= n) continue;
      sources[fill[w]] = v;
      sourceMasks[fill[w]++] = masks[k];
    }
  }
  for (let v = 0; v < n; v++) {
    queued[v] = free[v] !== 0 ? 1 : 0;
    if (free[v] !== 0) work.push(v);
  }
  while (work.length > 0) {
    const w = work.pop() as number;
    queued[w] = 0;
    const end = w + 1 < n ? start[w + 1] : fill[w];
    for (let k = start[w]; k < end; k++) {
      const v = sources[k];
      const gained = free[w] & sourceMasks[k] & ~free[v];
      if (gained === 0) continue;
      free[v] |= gained;
      if (queued[v] === 0) {
        queued[v] = 1;
        work.push(v);
      }
    }
  }
  let stuck = 0;
  for (let v = 0; v < n; v++) stuck |= ~free[v] & modes;
  return stuck;
}
