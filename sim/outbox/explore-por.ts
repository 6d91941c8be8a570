/**
 * Partial-order reduction of an outbox search (`explore --por`): the packed
 * system with the ample sets of `packed/independence.ts` and the proviso of
 * `core/por.ts`. It preserves the `always` properties only, and reachability
 * rather than distance: so neither liveness nor a depth bound goes with it
 * (docs/explore-reduction.md).
 */
import { withPartialOrder, newStats, type ReductionStats } from '../core/por.ts';
import type { PackedSystem } from '../core/explore-packed.ts';
import type { Property } from '../core/system.ts';
import type { OutboxBounds } from './explore-outbox.ts';
import type { WorldOptions } from './options.ts';
import { newCensus, outboxAmpleSets, type RefusalCensus } from './packed/independence.ts';
import type { PackedOutbox } from './packed/system.ts';
import type { World, WorldEvent } from './world.ts';

/** What the reduction did: states reduced, and why the others were expanded fully. */
export type PorReport = ReductionStats & RefusalCensus;

/** `system` (the packed outbox `base`, perhaps with symmetry) with partial-order reduction. */
export function partialOrder<P extends PackedSystem<WorldEvent>>(
  system: P,
  base: PackedOutbox,
  options: WorldOptions,
  properties: readonly Property<World>[],
  bounds: OutboxBounds,
): { system: P; report: () => PorReport } {
  // A reduced graph keeps every reachable violation reachable, not at the same depth, and no lasso.
  if (bounds.liveness === true) throw new Error('partial-order reduction preserves the always properties only: search without liveness');
  if (bounds.depthMax !== undefined) throw new Error('partial-order reduction does not keep distances: search without a depth bound');
  const census = newCensus();
  const stats = newStats();
  const always = properties.filter((p) => p.kind === 'always');
  const reduced = withPartialOrder<WorldEvent, P>(system, outboxAmpleSets(base, options, always, census), stats);
  return { system: reduced, report: () => ({ ...stats, ...census }) };
}
