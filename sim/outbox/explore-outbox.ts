/**
 * Exhaustive search of one outbox world on packed states: the object system
 * (and through it the lifecycle statechart) defines every step, the packed
 * system replays what it derived (see `packed/transitions.ts`). Gives the
 * same states, transitions and shortest counterexamples as `explore` over
 * the object system, faster and in a fraction of the memory.
 */
import { explorePacked } from '../core/explore-packed.ts';
import { explore, type ExploreBounds, type ExploreResult, type FoundViolation } from '../core/explore.ts';
import { livenessTraceEvents } from '../core/explore-liveness.ts';
import { BOUNDS_DEFAULT } from '../check.ts';
import { outboxLiveness, packedOutboxLiveness } from './explore-liveness.ts';
import { outboxSystem, type Steppers, type WorldRules } from './outbox-system.ts';
import { ANSWER_NAMES, type WorldOptions } from './options.ts';
import { Unrepresentable } from './packed/layout.ts';
import { packedSymmetry } from './packed/symmetry.ts';
import { livenessSymmetry } from './explore-liveness.ts';
import { packedOutbox, type PackedOptions } from './packed/system.ts';
import { StepReads } from './packed/step-reads.ts';
import { partialOrder, type PorReport } from './explore-por.ts';
import { watchWorld } from './pid-watch.ts';
import { worldSymmetry } from './symmetry-world.ts';
import type { WorldEvent } from './world.ts';
import { stableIdsIn } from './events/process.ts';

/** A search of the outbox, and which explorer made it. */
export type OutboxSearch = ExploreResult<WorldEvent> & {
  explorer: 'packed' | 'objects';
  /** Why the packed explorer could not search this world (then the object system did), or null. */
  fallback: string | null;
  /** Whether states were stored one per class of states equal up to renaming pids. */
  symmetry: boolean;
  /** Why symmetry reduction, asked for, was not used, or null. */
  symmetryOff: string | null;
  /** What partial-order reduction did, when asked for and used (`explore-por.ts`). */
  por?: PorReport;
  /**
   * Quiet states whose liveness was not judged: they wait for a time the
   * search does not reach (a world without a clock, or the clock's horizon;
   * docs/rules.md, 'Time'). 0 without the liveness search.
   */
  waitingUnjudged: number;
};

/** Bounds of a search of the outbox. */
export type OutboxBounds = ExploreBounds & {
  /**
   * Check the `eventually` properties too: at every state where the system
   * would be quiet once faults stop, and lassos (retrying forever) for
   * quiet-after-healing, against `check`'s liveness bound.
   */
  liveness?: boolean;
  /**
   * Store one state per class of states equal up to renaming pids (engines
   * of one rule set are interchangeable): the same verdicts, far fewer
   * states. Off unless asked (the pinned counts are of the whole space).
   */
  symmetry?: boolean;
  /** Partial-order reduction (`explore-por.ts`): the `always` properties only, so not with `liveness`. */
  por?: boolean;
};

/** Why a search takes no symmetry reduction and derives each engine's steps for it: a rule set read `who.pid` (see `pid-watch.ts`). */
function pidsRead(decision: string): string {
  return `the rule set reads an engine's pid (who.pid, in ${decision}): engines are not interchangeable, so each engine's steps are derived for it and no state stands for its renamings`;
}

/**
 * Searches on packed states; a world the packed layout cannot hold (see
 * {@link Unrepresentable}) is searched again from the start on the object
 * system, which gives the same search (same order, counts and shortest
 * counterexamples), slower. A world whose rule set reads an engine's pid
 * (`pid-watch.ts`) is searched with each engine's steps derived for that
 * engine, without symmetry reduction.
 */
export function exploreOutbox(
  options: WorldOptions,
  worldRules: WorldRules,
  steppers: Steppers,
  bounds: OutboxBounds,
  packed: PackedOptions = {},
): OutboxSearch {
  const watched = watchWorld(worldRules, steppers);
  const objects = (rules: WorldRules, st: Steppers, symmetric: boolean, fallback: string, symmetryOff: string | null): OutboxSearch => {
    const objectSystem = outboxSystem(options, rules, st);
    const liveness = bounds.liveness === true ? outboxLiveness(options, objectSystem, BOUNDS_DEFAULT.healStepsMax) : undefined;
    const r = explore(objectSystem, bounds, liveness, symmetric ? worldSymmetry(objectSystem) : undefined);
    return { ...r, explorer: 'objects', fallback, symmetry: symmetric, symmetryOff, waitingUnjudged: liveness?.waited() ?? 0 };
  };
  // Without a watch (steppers of another kind) nothing is known of pids: no symmetry, and the packed explorer as before.
  const askedOff = bounds.symmetry === true && watched === null ? 'the steppers given are not built from the rule sets (pid reads cannot be watched)' : null;
  const symmetric = bounds.symmetry === true && watched !== null;
  const rules = watched?.worldRules ?? worldRules;
  const st = watched?.steppers ?? steppers;
  /**
   * The search on packed states. With `concrete` (a rule set that reads an
   * engine's pid) each engine's steps are derived for that engine, and
   * neither the states nor the liveness search's cycles are taken up to
   * renaming pids; else a pid read met during the search stops it at the
   * next look at the caller's stop reasons, to be run again so.
   */
  const packedSearch = (concrete: boolean, symmetryOff: string | null): OutboxSearch => {
    const watchedBounds: OutboxBounds = watched === null || concrete ? bounds : { ...bounds, stopReason: () => (watched.read() !== null ? PIDS_READ : (bounds.stopReason?.() ?? null)) };
    // The steppers watched, so that a derivation sees whether an engine's step read its record (packed/step-reads.ts).
    const stepReads = new StepReads();
    const objectSystem = outboxSystem(options, rules, stepReads.wrap(st, rules));
    const liveness = bounds.liveness === true ? outboxLiveness(options, objectSystem, BOUNDS_DEFAULT.healStepsMax) : undefined;
    const base = packedOutbox(options, rules, objectSystem, { ...packed, stepReads, concretePids: concrete });
    // Without symmetry reduction the liveness search's cycle search still searches classes of states (pids are watched).
    const symmetrised =
      concrete ? base : symmetric ? { ...base, symmetry: packedSymmetry(base) } : liveness !== undefined && watched !== null ? { ...base, livenessSymmetry: livenessSymmetry(base) } : base;
    const reduction = bounds.por === true ? partialOrder(symmetrised, base, options, objectSystem.properties, bounds) : null;
    const system = reduction?.system ?? symmetrised;
    const packedLiveness = liveness === undefined ? undefined : packedOutboxLiveness(liveness, system, options.engines, packed.verify === true);
    const searched = explorePacked(system, watchedBounds, packedLiveness);
    return { ...searched, explorer: 'packed', fallback: null, symmetry: symmetric && !concrete, symmetryOff, waitingUnjudged: liveness?.waited() ?? 0, ...(reduction === null ? {} : { por: reduction.report() }) };
  };
  /** The search of a world whose rule set reads pids: packed with concrete pids, or on the object system where the packed layout cannot hold the world. */
  const pidsSearch = (decision: string): OutboxSearch => {
    const off = bounds.symmetry === true ? pidsRead(decision) : null;
    try {
      return packedSearch(true, off);
    } catch (err) {
      if (!(err instanceof Unrepresentable)) throw err;
      return objects(worldRules, steppers, false, err.message, off);
    }
  };
  const read = watched?.read() ?? null;
  if (read !== null) return pidsSearch(read);
  let r: OutboxSearch;
  try {
    r = packedSearch(false, askedOff);
  } catch (err) {
    // A step shared across engines, then met by a rule set that reads pids, may fail before the search stops (a pid its key does not hold, verify mode): the search is run again anyway.
    const readBefore = watched?.read() ?? null;
    if (readBefore !== null) return pidsSearch(readBefore);
    if (!(err instanceof Unrepresentable)) throw err;
    if (watched === null) return objects(worldRules, steppers, false, err.message, askedOff);
    // An engine that is gone may come back under its pid (events/process.ts): pids name identities, and the world's canonical form, which forgets them, does not hold.
    if (stableIdsIn(options)) return objects(rules, st, false, err.message, bounds.symmetry === true ? STABLE_IDS : askedOff);
    r = objects(rules, st, symmetric, err.message, askedOff);
  }
  const readAfter = watched?.read() ?? null;
  if (readAfter === null) return r;
  // What was searched assumed pids mean nothing: search again, each engine's steps its own, without symmetry.
  return pidsSearch(readAfter);
}

/** Why a world of stable identities is searched without symmetry reduction. */
const STABLE_IDS = 'engines restart under their old pids (--stable-ids): a pid names an identity that may come back';

/** The stop reason that ends a search which met a rule set reading pids (it is then run again). */
const PIDS_READ = 'pids read';

/**
 * The world and events of the trace that reproduces a violation a search
 * found: a liveness violation switches to the liveness phase after its path
 * and, for a lasso, repeats its cycle past `check`'s bound, in a world whose
 * broker gives the steady answer the lasso was found under.
 */
export function counterexampleOf(options: WorldOptions, v: FoundViolation<WorldEvent>): { options: WorldOptions; events: (WorldEvent | null)[] } {
  const mode = ANSWER_NAMES.find((a) => a === v.healed?.mode);
  return { options: mode === undefined ? options : { ...options, healAnswer: mode }, events: livenessTraceEvents(v, BOUNDS_DEFAULT.healStepsMax) };
}
