/**
 * Exhaustive bounded exploration: breadth-first search over any
 * {@link SimModel}, deduplicating states by 64-bit fingerprints of their
 * canonical key. Every event of every subsystem is taken (weights are
 * ignored). Violations of `always` properties are found at their shortest
 * depth; the search stops at `statesMax` and says so (`complete: false`)
 * rather than running out of memory.
 *
 * Per stored state the explorer keeps a fingerprint (22 bytes at worst in
 * the table), the index of its parent and of the event that led to it
 * (6 bytes); states themselves live only while they are in the frontier. A
 * counterexample is rebuilt by re-running the chain of event indices.
 */
import { FingerprintSet, fingerprint } from './fingerprint.ts';
import type { SimModel, Violation } from './model.ts';
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
   * Asked every `progressEvery` new states: a reason to stop now (for
   * instance the heap nearing its limit), or null. Stopping gives a partial
   * result that names the reason, never an out-of-memory crash.
   */
  stopReason?: () => string | null;
}

/** A violation with the shortest path of events that reaches it. */
export interface FoundViolation<E> {
  violation: Violation;
  events: E[];
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
}

/**
 * Parent and event index of every stored state, in discovery order: 6 bytes
 * a state, in fixed-size chunks (a doubling array would hold up to twice
 * that at the moment it grows).
 */
export class GrowableIndex {
  private static readonly CHUNK = 1 << 16;
  private parents: Int32Array[] = [];
  private events: Uint16Array[] = [];
  length = 0;
  push(parent: number, event: number): number {
    const c = GrowableIndex.CHUNK;
    if (this.length % c === 0) {
      this.parents.push(new Int32Array(c));
      this.events.push(new Uint16Array(c));
    }
    if (event > 0xffff) throw new Error(`explore: more than ${0xffff} events enabled in one state`);
    this.parents[this.parents.length - 1][this.length % c] = parent;
    this.events[this.events.length - 1][this.length % c] = event;
    return this.length++;
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
  seen: FingerprintSet,
  index: GrowableIndex,
  counts: { transitions: number; depth: number; frontierBytesMax?: number },
  violations: FoundViolation<E>[],
  complete: boolean,
  stoppedBy: string | null,
): ExploreResult<E> {
  return {
    complete,
    stoppedBy,
    states: seen.size,
    transitions: counts.transitions,
    depth: counts.depth,
    violations,
    indexBytes: seen.bytes + index.bytes,
    ...(counts.frontierBytesMax !== undefined ? { frontierBytesMax: counts.frontierBytesMax } : {}),
    collisionBound: (seen.size * seen.size) / 2 ** 65,
  };
}

/** Where a search was when the model threw: the depth of the state being expanded and the events that reach it. */
export interface SearchPosition<E> {
  depth: number;
  events: E[];
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
    events = pathTo();
  } catch {
    // The path could not be rebuilt: the depth is still worth reporting.
  }
  positions.set(err, { depth, events });
}

/** The events enabled in a state, flattened in the model's order. */
function enabledEvents<S, E>(model: SimModel<S, E>, s: S): E[] {
  const out: E[] = [];
  for (const g of model.choices(s)) for (const e of g.events) out.push(e);
  return out;
}

/** Breadth-first search from the model's initial state. */
export function explore<S, E>(model: SimModel<S, E>, bounds: ExploreBounds): ExploreResult<E> {
  const stopAtFirst = bounds.stopAtFirst ?? true;
  const progressEvery = bounds.progressEvery ?? 10_000;
  const always = model.properties.filter((p) => p.kind === 'always');
  const seen = new FingerprintSet(16);
  const index = new GrowableIndex();
  const start = model.initial();
  seen.add(...fingerprint(model.key(start)));
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
      const e = enabledEvents(model, s)[ei];
      events.push(e);
      s = model.step(s, e).state;
    }
    return events;
  };
  const result = (complete: boolean, stoppedBy: string | null = null): ExploreResult<E> =>
    searchResult(seen, index, { transitions, depth }, violations, complete, stoppedBy);
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
  if (check(start, 0)) return result(false, 'violation');
  /**
   * The frontier is the level of `depthMax`, whose successors are not
   * searched: the search is whole only if every one of them is a state
   * already stored (their transitions then count, as an unbounded search
   * counts them).
   */
  const cutAtDepth = (last: { s: S }[]): ExploreResult<E> => {
    let probed = 0;
    for (const { s } of last) {
      for (const e of enabledEvents(model, s)) {
        probed++;
        if (!seen.has(...fingerprint(model.key(model.step(s, e).state)))) return result(false, 'max-depth');
      }
    }
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
        const events = enabledEvents(model, s);
        for (let ei = 0; ei < events.length; ei++) {
          transitions++;
          const t = model.step(s, events[ei]).state;
          const [hi, lo] = fingerprint(model.key(t));
          if (!seen.add(hi, lo)) continue;
          const id = index.push(i, ei);
          depth = level + 1;
          if (check(t, id)) return result(false, 'violation');
          next.push({ s: t, i: id });
          if (seen.size % progressEvery === 0) {
            bounds.onProgress?.(seen.size, depth);
            const reason = bounds.stopReason?.() ?? null;
            if (reason !== null) return result(false, reason);
          }
          if (seen.size >= bounds.statesMax) return result(false, 'max-states');
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
