/**
 * Partial-order reduction for the packed explorer (docs/explore-reduction.md):
 * at each state only an ample set of the enabled events is expanded, so
 * interleavings of independent events are not all searched. Sound for the
 * `always` properties (reachability of a violating state) when the ample set
 * chosen at a state `s`
 *
 * - (C0) is empty only when `s` has no successor (here: never empty; a
 *   chooser that finds no set answers null and `s` is fully expanded);
 * - (C1) is persistent: no event outside it, on any path from `s` that
 *   avoids it, is dependent on an event in it (the {@link AmpleChooser}'s
 *   duty: it reasons over what every other actor may ever read or write);
 * - (C2) is invisible: no event in it writes a slot an `always` property
 *   reads (the chooser's duty too);
 * - (C3) satisfies the proviso for breadth-first search, checked here: every
 *   ample successor is a state not stored yet, else `s` is fully expanded.
 *   A new successor is discovered after `s`, so along a cycle of reduced
 *   states discovery order would rise forever: every cycle holds a fully
 *   expanded state. A set the chooser knows lies on no cycle ({@link
 *   Ample.acyclic}) needs no check.
 *
 * Liveness (`eventually`) is not preserved: a caller turns reduction off
 * when it checks those. With symmetry reduction the proviso is checked on
 * classes of states (what `visited` answers), which the proof needs: see the
 * docs section.
 */
import type { PackedSystem } from './explore-packed.ts';

/** An ample set: indices into the events enabled at a state. */
export interface Ample {
  events: readonly number[];
  /**
   * The chooser knows that no cycle of the state graph passes through an
   * edge of this set (an event that raises a count nothing lowers from
   * there on): such edges need no proviso, as no cycle of reduced states can
   * hold one.
   */
  acyclic: boolean;
}

/** Picks a persistent, invisible set of enabled events at a state (C1, C2), or null for none. */
export interface AmpleChooser<E> {
  /** A non-empty set of indices into `events` (the events enabled in `state`, in order), or null to expand fully. */
  ample(state: Int32Array, events: readonly E[]): Ample | null;
}

/** What the reduction did over a search. */
export interface ReductionStats {
  /** States expanded. */
  states: number;
  /** States expanded through an ample set smaller than all their events. */
  reduced: number;
  /** States where the chooser found a set but an ample successor was already stored (C3). */
  proviso: number;
  /** Successors skipped at reduced states. */
  skipped: number;
}

/** `system` with a partial-order reduction by `chooser`; `stats` counts what it did. */
export function withPartialOrder<E, P extends PackedSystem<E>>(system: P, chooser: AmpleChooser<E>, stats: ReductionStats = newStats()): P & { stats: ReductionStats } {
  const after = new Int32Array(system.width);
  let mask = new Uint8Array(16);
  const reduce = (state: Int32Array, visited: (s: Int32Array) => boolean): Uint8Array | null => {
    stats.states++;
    const events = system.events(state);
    const chosen = chooser.ample(state, events);
    if (chosen === null || chosen.events.length === 0 || chosen.events.length >= events.length) return null;
    const ample = chosen.events;
    // C3: a stored ample successor could close a cycle of reduced states; expand fully instead.
    if (!chosen.acyclic) for (const i of ample) {
      system.apply(state, events[i], after);
      if (visited(after)) {
        stats.proviso++;
        return null;
      }
    }
    if (mask.length < events.length) mask = new Uint8Array(events.length * 2);
    mask.fill(0);
    for (const i of ample) mask[i] = 1;
    stats.reduced++;
    stats.skipped += events.length - ample.length;
    return mask;
  };
  return { ...system, reduce, stats };
}

export function newStats(): ReductionStats {
  return { states: 0, reduced: 0, proviso: 0, skipped: 0 };
}
