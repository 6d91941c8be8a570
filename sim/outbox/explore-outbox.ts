/**
 * Exhaustive search of one outbox world on packed states: the object model
 * (and through it the lifecycle statechart) defines every step, the packed
 * system replays what it derived (see `packed/transitions.ts`). Gives the
 * same states, transitions and shortest counterexamples as `explore` over
 * the object model, faster and in a fraction of the memory.
 */
import { explorePacked } from '../core/explore-packed.ts';
import type { ExploreBounds, ExploreResult } from '../core/explore.ts';
import { outboxModel, type Steppers, type WorldRules } from './model.ts';
import type { WorldOptions } from './options.ts';
import { packedOutbox, type PackedOptions } from './packed/system.ts';
import type { WorldEvent } from './world.ts';

export function exploreOutbox(
  options: WorldOptions,
  worldRules: WorldRules,
  steppers: Steppers,
  bounds: ExploreBounds,
  packed: PackedOptions = {},
): ExploreResult<WorldEvent> {
  const model = outboxModel(options, worldRules, steppers);
  return explorePacked(packedOutbox(options, worldRules, model, packed), bounds);
}
