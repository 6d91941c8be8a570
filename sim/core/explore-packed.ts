/**
 * Breadth-first search over a {@link PackedSystem}: the same search as
 * {@link explore} (same order, same counts, same shortest counterexamples),
 * on states that are fixed-width integer vectors. Nothing per state lives on
 * the JavaScript heap: the frontier is a {@link StateQueue}, the visited set
 * a {@link FingerprintSet} of 64-bit hashes of the vectors, the parent links
 * a {@link GrowableIndex}.
 */
import { GrowableIndex, searchResult, type ExploreBounds, type ExploreResult, type FoundViolation } from './explore.ts';
import { FingerprintSet } from './fingerprint.ts';
import * as tuples from './tuple-table.ts';
import type { Violation } from './model.ts';
import { StateQueue } from './state-queue.ts';

/** A system whose states are packed into `width` 32-bit integers. */
export interface PackedSystem<E> {
  readonly width: number;
  /** Writes the initial state into `out`. */
  initial(out: Int32Array): void;
  /** The enabled events, in the order of the model's `choices` (so event indices agree). */
  events(state: Int32Array): readonly E[];
  /** Writes the state after `event` into `out` (which is not `state`). */
  apply(state: Int32Array, event: E, out: Int32Array): void;
  /**
   * Writes each successor of `state` into `out` in turn, in event order, and
   * calls `visit` with the event's index; stops when `visit` returns true.
   * The same successors as `apply` over `events`, computed faster.
   */
  expand(state: Int32Array, out: Int32Array, visit: (eventIndex: number) => boolean): void;
  /** Names of the `always` properties, checked by index. */
  readonly always: readonly string[];
  /**
   * The violation of `always[p]` in `state`, or null. `parent`, when given,
   * is a state in which `always[p]` held: a system may answer null at once
   * when the property reads nothing that differs between the two.
   */
  check(state: Int32Array, p: number, parent?: Int32Array): Violation | null;
}

// A module-local copy: a module loader may turn each access to an imported binding into a getter call.
const fingerprintInts = tuples.fingerprintInts;

/** Breadth-first search from the system's initial state. */
export function explorePacked<E>(system: PackedSystem<E>, bounds: ExploreBounds): ExploreResult<E> {
  const stopAtFirst = bounds.stopAtFirst ?? true;
  const progressEvery = bounds.progressEvery ?? 10_000;
  const width = system.width;
  const seen = new FingerprintSet(16);
  const index = new GrowableIndex();
  const queue = new StateQueue(width);
  const start = new Int32Array(width);
  system.initial(start);
  const current = new Int32Array(width);
  const next = new Int32Array(width);
  const fp = new Uint32Array(2);
  fingerprintInts(start, width, fp);
  seen.add(fp[0], fp[1]);
  index.push(-1, 0);
  queue.push(start);
  let transitions = 0;
  let depth = 0;
  let queueBytesMax = 0;
  const violations: FoundViolation<E>[] = [];
  const violated: boolean[] = system.always.map(() => false);

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
  const result = (complete: boolean, stoppedBy: string | null = null): ExploreResult<E> =>
    searchResult(seen, index, { transitions, depth, frontierBytesMax: queueBytesMax }, violations, complete, stoppedBy);
  const check = (s: Int32Array, i: number, parentState?: Int32Array): boolean => {
    for (let p = 0; p < system.always.length; p++) {
      // A property not yet violated held in every state stored so far, the parent among them.
      if (violated[p]) continue;
      const v = system.check(s, p, parentState);
      if (v !== null) {
        violated[p] = true;
        violations.push({ violation: v, events: pathTo(i) });
        if (stopAtFirst) return true;
      }
    }
    return false;
  };
  if (check(start, 0)) return result(false, 'violation');
  // States are numbered in discovery order, so a level ends at the state count it had when it began.
  let expanded = 0;
  let levelEnd = 1;
  let level = 0;
  let parent = 0;
  let stop: string | null = null;
  /** Takes one successor (in `next`); true to stop the search. */
  const visit = (ei: number): boolean => {
    transitions++;
    fingerprintInts(next, width, fp);
    if (!seen.add(fp[0], fp[1])) return false;
    const id = index.push(parent, ei);
    depth = level + 1;
    if (check(next, id, current)) {
      stop = 'violation';
      return true;
    }
    queue.push(next);
    if (queue.bytes > queueBytesMax) queueBytesMax = queue.bytes;
    if (seen.size % progressEvery === 0) {
      bounds.onProgress?.(seen.size, depth);
      stop = bounds.stopReason?.() ?? null;
      if (stop !== null) return true;
    }
    if (seen.size >= bounds.statesMax) {
      stop = 'max-states';
      return true;
    }
    return false;
  };
  while (queue.length > 0) {
    if (expanded === levelEnd) {
      level++;
      levelEnd = seen.size;
    }
    queue.shift(current);
    parent = expanded++;
    system.expand(current, next, visit);
    if (stop !== null) return result(false, stop);
  }
  return result(true);
}
