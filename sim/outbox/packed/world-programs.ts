/**
 * The programs of the events that are not an engine's (restarts to operator
 * actions, and corruptions). They read nothing of the engines but their
 * count, and under version skew their versions: without skew they are
 * memoised on the state's prefix (and, with operator actions, on whether
 * each claim's holder is alive: a `requeue` decision sees the claim; with
 * retention, on the ids an engine is working on: the sweeper leaves those).
 */
import { PairTable } from '../../core/pair-table.ts';
import type { WorldEvent } from '../world.ts';
import type { PackedContext } from './context.ts';
import { kindOn } from './kinds.ts';
import { busyIdsOf, type Lister } from './world-events.ts';
import { programsOf as programsOfEvents, sparseList } from './arrays.ts';
import { emptyList } from '../world-copy.ts';

export interface WorldPrograms {
  middle: Int32Array[];
  last: Int32Array[];
  /** The events of `middle` and `last`, index for index (the explorer's liveness search records which are steady). */
  middleEvents: WorldEvent[];
  lastEvents: WorldEvent[];
}

export interface WorldProgramsOf {
  /** The memoised programs of `s`, whose prefix is `prefix`; null under version skew (no memo). */
  memoised(s: Int32Array, prefix: number): WorldPrograms | null;
  /** The events `list` lists in `s` and their programs, derived now. */
  programsOf(s: Int32Array, list: Lister): { events: WorldEvent[]; programs: Int32Array[] };
}

/** No events, no programs: shared by every memo entry without any (never written to). */
const NO_EVENTS: WorldEvent[] = emptyList();
const NO_PROGRAMS: Int32Array[] = emptyList();
const NOTHING: WorldPrograms = { middle: NO_PROGRAMS, last: NO_PROGRAMS, middleEvents: NO_EVENTS, lastEvents: NO_EVENTS };

export function worldPrograms(c: PackedContext, lists: { middle: Lister; last: Lister }): WorldProgramsOf {
  const { options, ids, transitions, skew } = c;
  const programsOf = (s: Int32Array, list: Lister): { events: WorldEvent[]; programs: Int32Array[] } => {
    const events: WorldEvent[] = [];
    list(s, events);
    return { events, programs: programsOfEvents(transitions, s, events) };
  };
  /**
   * A prefix's programs. A memo entry is made per prefix (tens of thousands
   * in a suite world), and most list no event: those share one empty entry
   * instead of each holding five objects (a tenth of the suite's garbage,
   * all of it kept to the end of the search).
   */
  const listed: WorldEvent[] = emptyList();
  /** The events `list` lists in `s` (the shared empty list when none). */
  const eventsOf = (s: Int32Array, list: Lister): WorldEvent[] => {
    listed.length = 0;
    list(s, listed);
    return listed.length === 0 ? NO_EVENTS : [...listed];
  };
  const programsFor = (s: Int32Array, events: WorldEvent[]): Int32Array[] => (events.length === 0 ? NO_PROGRAMS : programsOfEvents(transitions, s, events));
  const derive = (s: Int32Array): WorldPrograms => {
    // In the order the events are taken: the middle ones listed and derived, then the last ones.
    const middleEvents = eventsOf(s, lists.middle);
    const middle = programsFor(s, middleEvents);
    const lastEvents = eventsOf(s, lists.last);
    if (middleEvents === NO_EVENTS && lastEvents === NO_EVENTS) return NOTHING;
    return { middle, last: programsFor(s, lastEvents), middleEvents, lastEvents };
  };
  // A stall is listed per engine holding a live lease, in its lifecycle state: no memo on the prefix either.
  if (skew || kindOn(options, 'stall')) return { memoised: () => null, programsOf };

  const memo = sparseList<WorldPrograms>();
  const byAlive = new PairTable();
  const sweeping = kindOn(options, 'sweep');
  const byBusy = new PairTable();
  const memoIndex = (s: Int32Array, prefix: number): number => {
    if (options.operatorActionsMax === 0 && !sweeping) return prefix;
    let alive = 0;
    if (options.operatorActionsMax > 0) for (let j = 0; j < ids.length; j++) alive = alive * 2 + transitions.holderAlive(s, j);
    let x = byAlive.get(prefix, alive);
    if (x < 0) byAlive.set(prefix, alive, (x = byAlive.size));
    if (!sweeping) return x;
    const busy = busyIdsOf(c, s);
    let y = byBusy.get(x, busy);
    if (y < 0) byBusy.set(x, busy, (y = byBusy.size));
    return y;
  };
  return {
    memoised: (s, prefix) => (memo[memoIndex(s, prefix)] ??= derive(s)),
    programsOf,
  };
}
