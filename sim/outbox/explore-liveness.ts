/**
 * What the explorer's liveness search needs of the outbox (see
 * `core/explore-liveness.ts`): the steady modes are the broker's answers
 * that can persist once faults stop (every answer of the menu but a crash
 * during the POST, which is a fault); the steps the system takes by itself
 * are engine steps (the table's `engine` group), time passing (the kinds
 * marked `steadyStep`) and the broker giving the mode's answer; quiet is
 * the object system's own test on the healed state, as the liveness phase of
 * `check` asks it.
 */
import type { SteadyLiveness } from '../core/explore-liveness.ts';
import { eventuallyViolated, isQuiet } from '../core/liveness.ts';
import type { TransitionSystem } from '../core/system.ts';
import { EVENT_KINDS, kindOf } from './events/table.ts';
import type { WorldOptions } from './options.ts';
import * as L from './packed/layout.ts';
import type { PackedOutbox } from './packed/system.ts';
import type { World, WorldEvent } from './world.ts';
import { waitsForTime } from './outbox-system.ts';
import { hasClock, horizonOf, nowOf } from './events/clock.ts';

/** The liveness of the outbox on the object system. */
export function outboxLiveness(options: WorldOptions, system: TransitionSystem<World, WorldEvent>, healStepsMax: number): SteadyLiveness<World, WorldEvent> {
  const heal = system.heal;
  if (heal === undefined) throw new Error('outbox liveness: the system has no liveness phase');
  // The answers that can persist once faults stop (`steady` in the table), those this world gives.
  const modes = EVENT_KINDS.filter((k) => k.steady !== undefined && (k.knob === null || k.knob.weight(options) > 0)).map((k) => k.name);
  return {
    properties: system.properties.filter((p) => p.kind === 'eventually').map((p) => p.name),
    modes,
    healStepsMax,
    atRest(w) {
      // Restarted engines are idle: a state with a busy engine is busy healed too (the cheap test first).
      if (w.engines.some((p) => p.state !== 'idle')) return 'busy';
      const healed = heal(w);
      if (isQuiet(system, healed)) return eventuallyViolated(system, healed);
      // At the clock's horizon time stops in the search: a world that only waits for a later
      // time (a back-off, a lease) is not judged there, neither quiet nor busy (docs/rules.md, 'Time').
      if (hasClock(options) && nowOf(w) >= horizonOf(options) && waitsForTime(system, healed)) return null;
      return 'busy';
    },
    steadyState: (w) => w.engines.length === options.engines,
    steady(e, m) {
      return e.kind === 'answer' ? e.answer === modes[m] : kindOf(e).group === 'engine' || kindOf(e).steadyStep === true;
    },
  };
}

/** The same on packed states: the tests that read one slot are done on the vector, the rest on the unpacked world. */
export function packedOutboxLiveness(objects: SteadyLiveness<World, WorldEvent>, system: PackedOutbox, engines: number): SteadyLiveness<Int32Array, WorldEvent> {
  const g = system.layout.globals;
  return {
    properties: objects.properties,
    modes: objects.modes,
    healStepsMax: objects.healStepsMax,
    atRest(s) {
      for (let k = 0; k < s[g + L.ENGINE_COUNT]; k++) if (system.tables.procs.value(s[g + L.ENGINES + k])?.state !== 'idle') return 'busy';
      return objects.atRest(system.unpack(s));
    },
    steadyState: (s) => s[g + L.ENGINE_COUNT] === engines,
    steady: (e, m) => objects.steady(e, m),
  };
}
