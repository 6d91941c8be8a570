/**
 * What the explorer's liveness search needs of the outbox (see
 * `core/explore-liveness.ts`): the steady modes are the broker's answers
 * that can persist once faults stop (every answer of the menu but a crash
 * during the POST, which is a fault); the steps the system takes by itself
 * are engine steps (scan, drain, step), time passing (tick) and the broker giving the mode's
 * answer; quiet is the object system's own test on the healed state, as the
 * liveness phase of `check` asks it.
 */
import type { SteadyLiveness } from '../core/explore-liveness.ts';
import { eventuallyViolated, isQuiet } from '../core/liveness.ts';
import type { TransitionSystem } from '../core/system.ts';
import { ANSWERS, type WorldOptions } from './options.ts';
import * as L from './packed/layout.ts';
import type { PackedOutbox } from './packed/system.ts';
import type { World, WorldEvent } from './world.ts';
import { waitsForTime } from './outbox-system.ts';

/** The liveness of the outbox on the object system. */
export function outboxLiveness(options: WorldOptions, system: TransitionSystem<World, WorldEvent>, healStepsMax: number): SteadyLiveness<World, WorldEvent> {
  const heal = system.heal;
  if (heal === undefined) throw new Error('outbox liveness: the system has no liveness phase');
  const modes = ANSWERS.filter((a, i) => a !== 'crash-in-post' && options.answerWeights[i] > 0);
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
      if (w.clock !== undefined && w.clock >= (options.ticksMax ?? 0) && waitsForTime(system, healed)) return null;
      return 'busy';
    },
    steadyState: (w) => w.engines.length === options.engines,
    steady(e, m) {
      // Time passing is no fault: it goes on once faults stop (events/clock.ts).
      return e.kind === 'scan' || e.kind === 'drain' || e.kind === 'step' || e.kind === 'tick' || (e.kind === 'answer' && e.answer === modes[m]);
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
