/**
 * The outbox world as a {@link PackedSystem}: what `explore` searches when it
 * runs fast. Its transitions are derived from the object system
 * ({@link PackedTransitions}); its enabled events are listed straight off the
 * vector in the object system's order (`engine-events.ts`, `world-events.ts`,
 * for the kinds of `kinds.ts`), memoised per engine (`expansion.ts`) and per
 * prefix (`world-programs.ts`); its properties are the object system's own,
 * checked on the slots each property reads (`properties.ts`). With `verify`
 * every event list, step and verdict is also computed the slow way and
 * compared (`verify.ts`).
 */
import { dedupesByKey } from '../../../model/broker.ts';
import type { KeptSink, PackedSystem, SuccessorSink } from '../../core/explore-packed.ts';
import type { TransitionSystem } from '../../core/system.ts';
import type { WorldRules } from '../outbox-system.ts';
import type { WorldOptions } from '../options.ts';
import { worldIdNames, type World, type WorldEvent } from '../world.ts';
import type { PackedContext } from './context.ts';
import { engineEvents } from './engine-events.ts';
import { EventCache } from './event-cache.ts';
import { expansions, type EngineExpansion } from './expansion.ts';
import { kindOn, requirePackedKinds } from './kinds.ts';
import * as L from './layout.ts';
import { PackedLayout, PackedTables } from './layout.ts';
import { MemoProperty } from './properties.ts';
import { PackedTransitions } from './transitions.ts';
import { packedQuiet } from './quiet.ts';
import type { StepReads } from './step-reads.ts';
import { verified } from './verify.ts';
import { worldEvents } from './world-events.ts';
import { worldPrograms, type WorldPrograms } from './world-programs.ts';
import { emptyList } from '../world-copy.ts';

export { PACKED_KINDS } from './kinds.ts';

// Slot positions copied to module constants (see transitions.ts).
const { ENGINE_COUNT, ENGINES, HEALING } = L;

/** Options of a packed outbox system. */
export interface PackedOptions {
  /** Compute everything also through the object system and throw on any difference (tests). */
  verify?: boolean;
  /**
   * The watch on the steppers the object system runs (`step-reads.ts`:
   * built with `stepReads.wrap`): an engine step that never reads its
   * record then shares its program across records. Without it an engine
   * step is keyed by its whole record.
   */
  stepReads?: StepReads;
  /**
   * Derive each engine's steps for that engine, pids as they are, instead of
   * once for all engines up to renaming pids: for a rule set that reads an
   * engine's pid (`pid-watch.ts`). Such a search takes no symmetry reduction.
   */
  concretePids?: boolean;
}

/** The packed outbox system with the object system it was derived from. */
export interface PackedOutbox extends PackedSystem<WorldEvent> {
  layout: PackedLayout;
  tables: PackedTables;
  transitions: PackedTransitions;
  unpack(s: Int32Array): World;
  /** The liveness phase's quiet test on a state whose engines are all idle (`quiet.ts`), or null where the object system's is asked. */
  quiet: ((s: Int32Array) => boolean) | null;
}

/** The shared parts of one world's packed system (throws `Unrepresentable` for a world it cannot list). */
function contextFor(options: WorldOptions, worldRules: WorldRules, objectSystem: TransitionSystem<World, WorldEvent>, stepReads: StepReads | null, concretePids: boolean): PackedContext {
  const ids = worldIdNames(options);
  requirePackedKinds(options);
  // An engine's context holds one bit per id (see `contextOf` in expansion.ts).
  if (ids.length > 30) throw new Error(`packed outbox: at most 30 ids (${ids.length} given)`);
  const layout = new PackedLayout(ids, options.engines);
  const tables = new PackedTables();
  return {
    options,
    worldRules,
    ids,
    skew: options.skew && worldRules.oldRules !== undefined,
    layout,
    tables,
    transitions: new PackedTransitions(layout, tables, objectSystem, stepReads, dedupesByKey(options.broker), concretePids, kindOn(options, 'poison')),
    g: layout.globals,
    events: new EventCache(),
    objectSystem,
  };
}

export function packedOutbox(
  options: WorldOptions,
  worldRules: WorldRules,
  objectSystem: TransitionSystem<World, WorldEvent>,
  packed: PackedOptions = {},
): PackedOutbox {
  const c = contextFor(options, worldRules, objectSystem, packed.stepReads ?? null, packed.concretePids === true);
  const { layout, tables, transitions, g } = c;
  const always = objectSystem.properties.filter((p) => p.kind === 'always').map((p) => new MemoProperty(p, layout, tables));
  const engines = expansions(c, engineEvents(c));
  const world = worldEvents(c);
  const programs = worldPrograms(c, world);

  /**
   * The enabled events in the object system's order: engine steps, broker
   * answers, restarts to operator actions, crashes, corruptions. `expand`
   * below walks the same order with programs in hand; written twice because
   * a shared walker with a callback per event measured about 7% slower on
   * the hottest path. Verify mode checks each against the object system.
   */
  const events = (s: Int32Array): WorldEvent[] => {
    const count = s[g + ENGINE_COUNT];
    const context = engines.contextOf(s, engines.prefixOf(s));
    const out: WorldEvent[] = [];
    for (let k = 0; k < count; k++) for (const e of engines.expansionOf(s, k, context).engine) out.push(e);
    for (let k = 0; k < count; k++) for (const e of engines.expansionOf(s, k, context).broker) out.push(e);
    world.middle(s, out);
    if (s[g + HEALING] === 0) for (let k = 0; k < count; k++) for (const e of engines.expansionOf(s, k, context).crash) out.push(e);
    world.last(s, out);
    return out;
  };

  const scratch: EngineExpansion[] = emptyList();
  /** Writes every successor of `s` to the sink in `events` order; stops when `take` returns true. */
  const expand = (s: Int32Array, sink: SuccessorSink): void => {
    const count = s[g + ENGINE_COUNT];
    const prefix = engines.prefixOf(s);
    const context = engines.contextOf(s, prefix);
    let i = 0;
    for (let k = 0; k < count; k++) {
      const x = engines.expansionOf(s, k, context);
      scratch[k] = x;
      for (let j = 0; j < x.enginePrograms.length; j++) {
        transitions.run(s, x.enginePrograms[j], sink.out, g + ENGINES + k);
        if (sink.take(i++, x.engine[j])) return;
      }
    }
    for (let k = 0; k < count; k++) {
      const x = scratch[k];
      for (let j = 0; j < x.brokerPrograms.length; j++) {
        transitions.run(s, x.brokerPrograms[j], sink.out, g + ENGINES + k);
        if (sink.take(i++, x.broker[j])) return;
      }
    }
    // The memo's arrays as they are (no object per state); under skew, derived now.
    const memo = programs.memoised(s, prefix);
    const middle = memo === null ? programs.programsOf(s, world.middle) : null;
    const middlePrograms = middle?.programs ?? (memo as WorldPrograms).middle;
    const middleEventsOf = middle?.events ?? (memo as WorldPrograms).middleEvents;
    for (let j = 0; j < middlePrograms.length; j++) {
      transitions.run(s, middlePrograms[j], sink.out);
      if (sink.take(i++, middleEventsOf[j])) return;
    }
    if (s[g + HEALING] === 1) return;
    for (let k = 0; k < count; k++) {
      const x = scratch[k];
      for (let j = 0; j < x.crashPrograms.length; j++) {
        transitions.run(s, x.crashPrograms[j], sink.out);
        if (sink.take(i++, x.crash[j])) return;
      }
    }
    const last = memo === null ? programs.programsOf(s, world.last) : null;
    const lastPrograms = last?.programs ?? (memo as WorldPrograms).last;
    const lastEventsOf = last?.events ?? (memo as WorldPrograms).lastEvents;
    for (let j = 0; j < lastPrograms.length; j++) {
      transitions.run(s, lastPrograms[j], sink.out);
      if (sink.take(i++, lastEventsOf[j])) return;
    }
  };

  const middleEvents: WorldEvent[] = emptyList();
  const lastEvents: WorldEvent[] = emptyList();
  /**
   * `expand` for the liveness search's cycle search, which follows only the
   * steps the system takes by itself: events `sink.keep` refuses cost no
   * transition, and `take` gets each event (so no event list is built).
   */
  const expandKept = (s: Int32Array, sink: KeptSink<WorldEvent>): void => {
    const count = s[g + ENGINE_COUNT];
    const prefix = engines.prefixOf(s);
    const context = engines.contextOf(s, prefix);
    let i = 0;
    for (let k = 0; k < count; k++) {
      const x = engines.expansionOf(s, k, context);
      scratch[k] = x;
      for (let j = 0; j < x.engine.length; j++, i++) {
        const e = x.engine[j];
        if (!sink.keep(e)) continue;
        transitions.run(s, x.enginePrograms[j], sink.out, g + ENGINES + k);
        if (sink.take(i, e)) return;
      }
    }
    for (let k = 0; k < count; k++) {
      const x = scratch[k];
      for (let j = 0; j < x.broker.length; j++, i++) {
        const e = x.broker[j];
        if (!sink.keep(e)) continue;
        transitions.run(s, x.brokerPrograms[j], sink.out, g + ENGINES + k);
        if (sink.take(i, e)) return;
      }
    }
    // The world's programs are memoised per prefix only once an event of theirs is kept: the cycle
    // search mostly follows engine steps, and reaches prefixes the main search may never expand.
    let memo: WorldPrograms | null | undefined = undefined;
    middleEvents.length = 0;
    world.middle(s, middleEvents);
    for (let j = 0; j < middleEvents.length; j++, i++) {
      const e = middleEvents[j];
      if (!sink.keep(e)) continue;
      if (memo === undefined) memo = programs.memoised(s, prefix);
      transitions.run(s, memo?.middle[j] ?? transitions.programFor(s, e), sink.out);
      if (sink.take(i, e)) return;
    }
    if (s[g + HEALING] === 1) return;
    for (let k = 0; k < count; k++) {
      const x = scratch[k];
      for (let j = 0; j < x.crash.length; j++, i++) {
        const e = x.crash[j];
        if (!sink.keep(e)) continue;
        transitions.run(s, x.crashPrograms[j], sink.out);
        if (sink.take(i, e)) return;
      }
    }
    lastEvents.length = 0;
    world.last(s, lastEvents);
    for (let j = 0; j < lastEvents.length; j++, i++) {
      const e = lastEvents[j];
      if (!sink.keep(e)) continue;
      if (memo === undefined) memo = programs.memoised(s, prefix);
      transitions.run(s, memo?.last[j] ?? transitions.programFor(s, e), sink.out);
      if (sink.take(i, e)) return;
    }
  };

  const system: PackedOutbox = {
    width: layout.width,
    layout,
    tables,
    transitions,
    unpack: (s) => layout.unpack(s, tables),
    quiet: packedQuiet(c),
    always: always.map((p) => p.property.name),
    initial(out) {
      layout.pack(objectSystem.initial(), tables, out);
    },
    events,
    expand,
    expandKept,
    apply(s, e, out) {
      transitions.apply(s, e, out);
    },
    check(s, p, changed) {
      return always[p].check(s, changed);
    },
  };
  return packed.verify ? verified(system, objectSystem) : system;
}
