/**
 * Exhaustive bounded exploration: breadth-first search over any
 * {@link TransitionSystem}, deduplicating states by 64-bit fingerprints of their
 * canonical key. Every event of every subsystem is taken (weights are
 * ignored). Violations of `always` properties are found at their shortest
 * depth; the search stops at `statesMax` and says so (`complete: false`)
 * rather than running out of memory.
 *
 * Per stored state the explorer keeps a fingerprint (22 bytes at worst in
 * the table), the index of its parent and of the event that led to it
 * (6 bytes); states themselves live only while they are in the frontier. A
 * counterexample is rebuilt by re-running the chain of event indices.
 *
 * Given a {@link SteadyLiveness}, the `eventually` properties are checked
 * too, on every state as it is expanded (see `explore-liveness.ts`).
 */
import { LivenessSearch, livenessTailOf, type LivenessGraph, type SteadyLiveness } from './explore-liveness.ts';
import { FingerprintSet, fingerprint } from './fingerprint.ts';
import type { TransitionSystem, Violation } from './system.ts';
import { POSITION_SEARCH, watchAt } from '../watch.ts';

/** Bounds of one search. */
export interface ExploreBounds {
  /** Distinct states to store before stopping with a partial result. */
  statesMax: number;
  /**
   * Expand no state at this depth (events from the initial state): every
   * trace of up to `depthMax` events is searched, and no longer one. A
   * search cut short by it is partial (`max-depth`) unless every successor
   * of a state at the bound is a state already stored.
   */
  depthMax?: number;
  /** Stop at the first violation (default true). */
  stopAtFirst?: boolean;
  /** Called about every `progressEvery` new states. */
  onProgress?: (states: number, depth: number) => void;
  progressEvery?: number;
  /**
   * Asked every `stopEvery` new states (default `progressEvery`): a reason
   * to stop now (for instance the heap nearing its limit), or null.
   * Stopping gives a partial result that names the reason, never an
   * out-of-memory crash.
   */
  stopReason?: () => string | null;
  stopEvery?: number;
  /**
   * Asked before a table of the search grows by `bytes` at once (the
   * visited set doubles): a reason to stop instead, or null. With
   * `stopReason`, what keeps a memory bound from being overshot by one
   * doubling.
   */
  beforeGrowth?: (bytes: number) => string | null;
  /**
   * Packed searches with liveness record the steps the system takes by
   * itself and find lassos on them; the first busy states also get a cycle
   * search of the region ahead of them, so that a lasso near the start is
   * reported at once: the states those regions may take in all (default
   * `LOOK_AHEAD_STATES`, 0 for none). Verdicts do not depend on it.
   */
  lookAhead?: number;
}

/** A violation with the shortest path of events that reaches it. */
export interface FoundViolation<E> {
  violation: Violation;
  /** The shortest path to the violating state (a liveness violation: to the state where faults stop). */
  events: E[];
  /**
   * A liveness violation: faults stop after `events`, the broker's steady
   * answer (`mode`, null: the world's own), and for a lasso the cycle that
   * repeats forever (empty for a violation at a quiet state). See
   * `livenessTraceEvents` for the events of a trace that replays it.
   */
  healed?: { mode: string | null; cycle: E[] };
}

/**
 * Symmetry reduction (the outbox: engines are interchangeable up to renaming
 * pids): the visited set holds a fingerprint of each state's class, so one
 * state per class is stored and expanded. The frontier keeps real states, so
 * a counterexample's path is a real path. Sound only for a system whose
 * steps and properties commute with the renaming.
 */
export interface Symmetry<S, E> {
  /** The 64-bit fingerprint of the class of `s` (of a canonical form). */
  print(s: S, out: Uint32Array): void;
  /**
   * `events` lead from `from` to `to`, a state of from's class: the same
   * events renamed as the renaming that takes `from` to `to`, which lead on
   * from `to` as `events` led from `from`.
   */
  carry(from: S, to: S, events: readonly E[]): E[];
  /** Whether two states are equal (not only of one class). */
  same(a: S, b: S): boolean;
}

/** Most rounds {@link closeCycle} takes (a renaming of n pids returns to the identity within n! rounds, far fewer in practice). */
const CYCLE_ROUNDS_MAX = 720;

/**
 * A cycle found among classes leads from `entry` to a state of its class,
 * not always to `entry` itself: the real cycle repeats it, each round renamed
 * as the last one moved the pids, until it returns to `entry`.
 */
export function closeCycle<S, E>(symmetry: Symmetry<S, E>, entry: S, cycle: readonly E[], after: (s: S, events: readonly E[]) => S): E[] {
  const events = [...cycle];
  const first = after(entry, cycle);
  let at = first;
  let round: readonly E[] = cycle;
  // One renaming (entry to first) each round: round k leads from its k-th power of entry to the next.
  for (let n = 0; n < CYCLE_ROUNDS_MAX && !symmetry.same(at, entry); n++) {
    round = symmetry.carry(entry, first, round);
    at = after(at, round);
    events.push(...round);
  }
  if (!symmetry.same(at, entry)) throw new Error('explore: a cycle among classes of states does not return to its state');
  return events;
}

/** What a search found. */
export interface ExploreResult<E> {
  /** True when every reachable state was visited. */
  complete: boolean;
  states: number;
  transitions: number;
  /** Depth (events from the initial state) of the deepest state stored. */
  depth: number;
  violations: FoundViolation<E>[];
  /** Bytes of the visited set and the parent links (the per-state cost). */
  indexBytes: number;
  /** Most bytes the frontier held at once, where the explorer can tell (packed states). */
  frontierBytesMax?: number;
  /** Probability bound that two distinct states shared a fingerprint (n^2 / 2^65). */
  collisionBound: number;
  /** Why an incomplete search stopped (`max-states`, `max-depth`, a violation, or the caller's reason); null when complete. */
  stoppedBy: string | null;
  /** The properties the search checked, by name (`always` ones; with liveness, the `eventually` ones and quiet-after-healing). */
  checked: string[];
}

/**
 * Parent and event index of every stored state, in discovery order: 6 bytes
 * a state, in fixed-size chunks (a doubling array would hold up to twice
 * that at the moment it grows).
 */
export class GrowableIndex {
  private static readonly CHUNK = 1 << 16;
  // Made with their first chunks, as StateQueue's (an array made empty has elements of another kind).
  private readonly parents: Int32Array[] = [new Int32Array(GrowableIndex.CHUNK)];
  private readonly events: Uint16Array[] = [new Uint16Array(GrowableIndex.CHUNK)];
  length = 0;
  push(parent: number, event: number): number {
    const c = GrowableIndex.CHUNK;
    if (this.length % c === 0 && this.length > 0) this.addChunk();
    if (event > 0xffff) throw new Error(`explore: more than ${0xffff} events enabled in one state`);
    this.parents[this.parents.length - 1][this.length % c] = parent;
    this.events[this.events.length - 1][this.length % c] = event;
    return this.length++;
  }
  private addChunk(): void {
    this.parents.push(new Int32Array(GrowableIndex.CHUNK));
    this.events.push(new Uint16Array(GrowableIndex.CHUNK));
  }
  parent(i: number): number {
    return this.parents[Math.floor(i / GrowableIndex.CHUNK)][i % GrowableIndex.CHUNK];
  }
  event(i: number): number {
    return this.events[Math.floor(i / GrowableIndex.CHUNK)][i % GrowableIndex.CHUNK];
  }
  get bytes(): number {
    return this.parents.length * GrowableIndex.CHUNK * 6;
  }
  /** The event indices that lead from the initial state to state `i`, first to last. */
  chain(i: number): number[] {
    const chain: number[] = [];
    for (let k = i; k > 0; k = this.parent(k)) chain.push(this.event(k));
    return chain.reverse();
  }
}

/** What a search reports, from its visited set and index. */
export function searchResult<E>(
  seen: { readonly size: number; readonly bytes: number },
  index: GrowableIndex,
  counts: { transitions: number; depth: number; frontierBytesMax?: number },
  violations: FoundViolation<E>[],
  complete: boolean,
  stoppedBy: string | null,
  checked: string[],
  liveness: { cut: string | null; found: FoundViolation<E>[]; bytes: number } | null = null,
  /** Bytes of the recorded steps of the liveness search, if recorded. */
  stepBytes = 0,
): ExploreResult<E> {
  // A cycle search cut by its bound leaves quiet-after-healing unproven: the search is partial.
  const cut = complete && liveness?.cut ? liveness.cut : null;
  return {
    complete: complete && cut === null,
    stoppedBy: cut ?? stoppedBy,
    states: seen.size,
    transitions: counts.transitions,
    depth: counts.depth,
    violations: [...violations, ...(liveness?.found ?? [])],
    checked,
    indexBytes: seen.bytes + index.bytes + (liveness?.bytes ?? 0) + stepBytes,
    ...(counts.frontierBytesMax !== undefined ? { frontierBytesMax: counts.frontierBytesMax } : {}),
    collisionBound: (seen.size * seen.size) / 2 ** 65,
  };
}

/**
 * Where a search was when the system threw: the depth of the state being
 * expanded and the events that reach it, then, when the liveness search's
 * cycle search threw, the switch to the liveness phase (null) and the
 * steady steps to the state it was at.
 */
export interface SearchPosition<E> {
  depth: number;
  events: (E | null)[];
}

const positions = new WeakMap<object, SearchPosition<unknown>>();

/** Where the search was when `err` was thrown out of it, if it was. */
export function searchPositionOf<E>(err: unknown): SearchPosition<E> | undefined {
  return typeof err === 'object' && err !== null ? (positions.get(err) as SearchPosition<E> | undefined) : undefined;
}

/**
 * Attaches the search position to an error thrown while expanding a state
 * (a rule set's decision that broke its contract, say). The path is rebuilt
 * by re-running the steps that reached the state, which succeeded before.
 */
export function markSearchError(err: unknown, depth: number, pathTo: () => unknown[]): void {
  if (typeof err !== 'object' || err === null || positions.has(err)) return;
  let events: unknown[] = [];
  try {
    events = [...pathTo(), ...(livenessTailOf(err) ?? [])];
  } catch {
    // The path could not be rebuilt: the depth is still worth reporting.
  }
  positions.set(err, { depth, events });
}

/** The events enabled in a state, flattened in the system's order. */
function enabledEvents<S, E>(system: TransitionSystem<S, E>, s: S): E[] {
  const out: E[] = [];
  for (const g of system.choices(s)) for (const e of g.events) out.push(e);
  return out;
}

/** The object system's graph for the liveness search (shortest paths by a search without liveness). */
function objectGraph<S, E>(system: TransitionSystem<S, E>, statesMax: number, symmetry: Symmetry<S, E> | undefined, print: (s: S, out: Uint32Array) => void): LivenessGraph<S, E> {
  const stateAfter = (s: S, events: readonly E[]): S => {
    for (const e of events) s = system.step(s, e).state;
    return s;
  };
  return {
    print,
    successors(s, keep) {
      return enabledEvents(system, s)
        .filter(keep)
        .map((event) => ({ event, state: system.step(s, event).state }));
    },
    shortestPathTo(targets) {
      const p = new Uint32Array(2);
      const target = {
        name: 'target',
        kind: 'always' as const,
        description: 'not a state of the cycle',
        check(s: S): Violation | null {
          print(s, p);
          return targets.has(`${p[0]}:${p[1]}`) ? { property: 'target', subject: '', body: '', layer: '', detail: '' } : null;
        },
      };
      return explore({ ...system, properties: [target] }, { statesMax }, undefined, symmetry).violations[0]?.events ?? null;
    },
    stateAfter: (events) => stateAfter(system.initial(), events),
    ...(symmetry === undefined ? {} : { closeCycle: (entry: S, cycle: E[]) => closeCycle(symmetry, entry, cycle, stateAfter) }),
  };
}

/**
 * Breadth-first search from the system's initial state; with `liveness`, the
 * `eventually` properties too; with `symmetry`, one state per class.
 */
export function explore<S, E>(system: TransitionSystem<S, E>, bounds: ExploreBounds, liveness?: SteadyLiveness<S, E>, symmetry?: Symmetry<S, E>): ExploreResult<E> {
  const stopAtFirst = bounds.stopAtFirst ?? true;
  const progressEvery = bounds.progressEvery ?? 10_000;
  const stopEvery = bounds.stopEvery ?? progressEvery;
  const always = system.properties.filter((p) => p.kind === 'always');
  const fp = new Uint32Array(2);
  const print = symmetry !== undefined ? (s: S, out: Uint32Array) => symmetry.print(s, out) : (s: S, out: Uint32Array) => {
    const [hi, lo] = fingerprint(system.key(s));
    out[0] = hi;
    out[1] = lo;
  };
  /** The fingerprint of a state, as the visited set holds it (the pair is reused: take it at once). */
  const printed = (s: S): Uint32Array => (print(s, fp), fp);
  const lively = liveness === undefined ? null : new LivenessSearch(liveness, objectGraph(system, bounds.statesMax, symmetry, print), undefined, () => bounds.stopReason?.() ?? null);
  const checked = [...always.map((p) => p.name), ...(lively?.checked ?? [])];
  const seen = new FingerprintSet(16);
  const index = new GrowableIndex();
  const start = system.initial();
  printed(start);
  seen.add(fp[0], fp[1]);
  index.push(-1, 0);
  let frontier: { s: S; i: number }[] = [{ s: start, i: 0 }];
  let transitions = 0;
  let depth = 0;
  const violations: FoundViolation<E>[] = [];
  const violated = new Set<string>();

  const pathTo = (i: number): E[] => {
    const events: E[] = [];
    let s = start;
    for (const ei of index.chain(i)) {
      const e = enabledEvents(system, s)[ei];
      events.push(e);
      s = system.step(s, e).state;
    }
    return events;
  };
  const result = (complete: boolean, stoppedBy: string | null = null): ExploreResult<E> =>
    searchResult(seen, index, { transitions, depth }, violations, complete, stoppedBy, checked, lively);
  const check = (s: S, i: number): boolean => {
    for (const p of always) {
      if (violated.has(p.name)) continue;
      const v = p.check(s);
      if (v !== null) {
        violated.add(p.name);
        violations.push({ violation: v, events: pathTo(i) });
        if (stopAtFirst) return true;
      }
    }
    return false;
  };
  /** The liveness checks of a state, as it is expanded (breadth-first order, so shortest first): why to stop, or null. */
  const live = (s: S, i: number): string | null => {
    if (lively === null || !lively.visit(s, () => pathTo(i))) return null;
    return lively.stopped ?? (stopAtFirst ? 'violation' : null);
  };
  /** A growth of the visited set the caller refuses, or null. */
  const growthRefused = (): string | null => {
    const bytes = seen.growthBytes + (lively?.growthBytes ?? 0);
    return bytes > 0 ? (bounds.beforeGrowth?.(bytes) ?? null) : null;
  };
  if (check(start, 0)) return result(false, 'violation');
  /**
   * The frontier is the level of `depthMax`, whose successors are not
   * searched: the search is whole only if every one of them is a state
   * already stored (their transitions then count, as an unbounded search
   * counts them).
   */
  const cutAtDepth = (last: { s: S; i: number }[]): ExploreResult<E> => {
    let probed = 0;
    let fresh = false;
    // Every state of the last level is within the bound: each is checked for liveness, even once a successor beyond is known.
    for (const { s, i } of last) {
      const stop = live(s, i);
      if (stop !== null) return result(false, stop);
      for (const e of fresh ? [] : enabledEvents(system, s)) {
        probed++;
        printed(system.step(s, e).state);
        if (!seen.has(fp[0], fp[1])) {
          fresh = true;
          break;
        }
      }
      if (fresh && lively === null) break;
    }
    if (fresh) return result(false, 'max-depth');
    transitions += probed;
    return result(true);
  };
  let level = 0;
  let expanding = 0;
  try {
    while (frontier.length > 0) {
      watchAt(POSITION_SEARCH, level);
      if (level === bounds.depthMax) return cutAtDepth(frontier);
      const next: { s: S; i: number }[] = [];
      for (const { s, i } of frontier) {
        expanding = i;
        const stop = live(s, i);
        if (stop !== null) return result(false, stop);
        const events = enabledEvents(system, s);
        for (let ei = 0; ei < events.length; ei++) {
          transitions++;
          const t = system.step(s, events[ei]).state;
          const [hi, lo] = printed(t);
          if (seen.has(hi, lo)) continue;
          // The bound is met when a state past it would be stored: a world of exactly `statesMax` states is searched whole.
          if (seen.size >= bounds.statesMax) return result(false, 'max-states');
          const refused = growthRefused();
          if (refused !== null) return result(false, refused);
          seen.add(hi, lo);
          const id = index.push(i, ei);
          depth = level + 1;
          if (check(t, id)) return result(false, 'violation');
          next.push({ s: t, i: id });
          if (seen.size % progressEvery === 0) bounds.onProgress?.(seen.size, depth);
          if (seen.size % stopEvery === 0) {
            const reason = bounds.stopReason?.() ?? null;
            if (reason !== null) return result(false, reason);
          }
        }
      }
      level++;
      frontier = next;
    }
  } catch (err) {
    markSearchError(err, level, () => pathTo(expanding));
    throw err;
  }
  return result(true);
}
