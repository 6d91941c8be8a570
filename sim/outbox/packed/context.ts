/**
 * What the parts of the packed outbox system share: one world's options and
 * rule sets, its ids, the layout and value tables of its vectors, the
 * transitions derived from the object system, and the shared event objects.
 */
import type { TransitionSystem } from '../../core/system.ts';
import type { WorldRules } from '../outbox-system.ts';
import type { WorldOptions } from '../options.ts';
import type { World, WorldEvent } from '../world.ts';
import type { EventCache } from './event-cache.ts';
import type { PackedLayout, PackedTables } from './layout.ts';
import type { PackedTransitions } from './transitions.ts';

export interface PackedContext {
  options: WorldOptions;
  worldRules: WorldRules;
  ids: readonly string[];
  /** Version skew is on: the world asks for it and an old rule set is given. */
  skew: boolean;
  layout: PackedLayout;
  tables: PackedTables;
  transitions: PackedTransitions;
  /** Where the world-wide slots start (`layout.globals`). */
  g: number;
  events: EventCache;
  /** The object system the transitions are derived from: a kind listed per distinct value asks it (see `world-events.ts`). */
  objectSystem: TransitionSystem<World, WorldEvent>;
}
