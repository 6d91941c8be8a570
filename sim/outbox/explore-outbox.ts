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
import { packedOutbox, type PackedOptions } from './packed/system.ts';
import type { WorldEvent } from './world.ts';

/** A search of the outbox, and which explorer made it. */
export type OutboxSearch = ExploreResult<WorldEvent> & {
  explorer: 'packed' | 'objects';
  /** Why the packed explorer could not search this world (then the object system did), or null. */
  fallback: string | null;
};

/** Bounds of a search of the outbox. */
export type OutboxBounds = ExploreBounds & {
  /**
   * Check the `eventually` properties too: at every state where the system
   * would be quiet once faults stop, and lassos (retrying forever) for
   * quiet-after-healing, against `check`'s liveness bound.
   */
  liveness?: boolean;
};

/**
 * Searches on packed states; a world the packed layout cannot hold (see
 * {@link Unrepresentable}) is searched again from the start on the object
 * system, which gives the same search (same order, counts and shortest
 * counterexamples), slower.
 */
export function exploreOutbox(
  options: WorldOptions,
  worldRules: WorldRules,
  steppers: Steppers,
  bounds: OutboxBounds,
  packed: PackedOptions = {},
): OutboxSearch {
  const objectSystem = outboxSystem(options, worldRules, steppers);
  const liveness = bounds.liveness === true ? outboxLiveness(options, objectSystem, BOUNDS_DEFAULT.healStepsMax) : undefined;
  try {
    const system = packedOutbox(options, worldRules, objectSystem, packed);
    const packedLiveness = liveness === undefined ? undefined : packedOutboxLiveness(liveness, system, options.engines);
    return { ...explorePacked(system, bounds, packedLiveness), explorer: 'packed', fallback: null };
  } catch (err) {
    if (!(err instanceof Unrepresentable)) throw err;
    return { ...explore(objectSystem, bounds, liveness), explorer: 'objects', fallback: err.message };
  }
}

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
