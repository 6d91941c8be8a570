/**
 * Exhaustive bounded exploration: breadth-first search over any
 * {@link SimModel}, deduplicating states by their canonical key. Every event
 * of every subsystem is taken (weights are ignored). Violations of `always`
 * properties are found at their shortest depth; the search stops at
 * `statesMax` and says so (`complete: false`) rather than running out of memory.
 */
import type { SimModel, Violation } from './model.ts';

/** Bounds of one search. */
export interface ExploreBounds {
  /** Distinct states to store before stopping with a partial result. */
  statesMax: number;
  /** Stop at the first violation (default true). */
  stopAtFirst?: boolean;
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
  /** Depth of the deepest level fully or partly visited. */
  depth: number;
  violations: FoundViolation<E>[];
}

/** Breadth-first search from the model's initial state. */
export function explore<S, E>(model: SimModel<S, E>, bounds: ExploreBounds): ExploreResult<E> {
  const stopAtFirst = bounds.stopAtFirst ?? true;
  const always = model.properties.filter((p) => p.kind === 'always');
  // Parent links let us rebuild the shortest path without storing paths per state.
  const parent: number[] = [-1];
  const via: (E | null)[] = [null];
  const seen = new Map<string, number>();
  const start = model.initial();
  seen.set(model.key(start), 0);
  let frontier: { s: S; i: number }[] = [{ s: start, i: 0 }];
  let transitions = 0;
  let depth = 0;
  const violations: FoundViolation<E>[] = [];
  const violated = new Set<string>();
  const pathTo = (i: number): E[] => {
    const events: E[] = [];
    for (let k = i; k > 0; k = parent[k]) events.push(via[k] as E);
    return events.reverse();
  };
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
  if (check(start, 0)) return { complete: false, states: 1, transitions: 0, depth: 0, violations };
  while (frontier.length > 0) {
    const next: { s: S; i: number }[] = [];
    depth++;
    for (const { s, i } of frontier) {
      for (const g of model.choices(s)) {
        for (const e of g.events) {
          transitions++;
          const t = model.step(s, e).state;
          const k = model.key(t);
          if (seen.has(k)) continue;
          if (seen.size >= bounds.statesMax) {
            return { complete: false, states: seen.size, transitions, depth, violations };
          }
          const id = parent.length;
          seen.set(k, id);
          parent.push(i);
          via.push(e);
          if (check(t, id)) return { complete: false, states: seen.size, transitions, depth, violations };
          next.push({ s: t, i: id });
        }
      }
    }
    frontier = next;
  }
  return { complete: true, states: seen.size, transitions, depth: depth - 1, violations };
}
