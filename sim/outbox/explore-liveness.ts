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
import { isQuiet, quietVerdict } from '../core/liveness.ts';
import type { TransitionSystem, Violation } from '../core/system.ts';
import { EVENT_KINDS, kindOf } from './events/table.ts';
import type { WorldOptions } from './options.ts';
import * as L from './packed/layout.ts';
import type { PackedOutbox } from './packed/system.ts';
import { packedSymmetry } from './packed/symmetry.ts';
import { Unrepresentable } from './packed/layout.ts';
import type { Symmetry } from '../core/explore.ts';
import { fingerprintInts } from '../core/tuple-table.ts';
import type { World, WorldEvent } from './world.ts';
import { hasClock, horizonOf, nowOf } from './events/clock.ts';
import { ruleFaultOf } from '../../model/rule-fault.ts';

/** The liveness of the outbox on the object system, with the verdict of a state known quiet. */
export interface OutboxLiveness extends SteadyLiveness<World, WorldEvent> {
  /** `atRest` of a world whose engines are all idle and which is known quiet once healed: the first `eventually` violation, or null. */
  quietVerdict(w: World): Violation | null;
  /**
   * How many times a quiet state was left unjudged because it waits for a
   * time the search does not reach (no clock, or the clock's horizon): the
   * explorer reports it, so that a clean verdict never hides it.
   */
  waited(): number;
}

/** The liveness of the outbox on the object system. */
export function outboxLiveness(options: WorldOptions, system: TransitionSystem<World, WorldEvent>, healStepsMax: number): OutboxLiveness {
  const heal = system.heal;
  if (heal === undefined) throw new Error('outbox liveness: the system has no liveness phase');
  // The answers that can persist once faults stop (`steady` in the table), those this world gives.
  const modes = EVENT_KINDS.filter((k) => k.steady !== undefined && (k.knob === null || k.knob.weight(options) > 0)).map((k) => k.name);
  let waited = 0;
  /** The verdict of a quiet healed world; a world waiting for a time that never comes is counted and not judged. */
  const judged = (healed: World): Violation | null => {
    const v = quietVerdict(system, healed);
    if (v !== 'waiting') return v;
    waited++;
    return null;
  };
  return {
    properties: system.properties.filter((p) => p.kind === 'eventually').map((p) => p.name),
    modes,
    healStepsMax,
    atRest(w) {
      // Restarted engines are idle: a state with a busy engine is busy healed too (the cheap test first).
      if (w.engines.some((p) => p.state !== 'idle')) return 'busy';
      const healed = heal(w);
      if (isQuiet(system, healed)) return judged(healed);
      // At the clock's horizon time stops in the search: a world that only waits for a later
      // time (a back-off, a lease) is not judged there, neither quiet nor busy (docs/rules.md, 'Time').
      if (hasClock(options) && nowOf(w) >= horizonOf(options) && system.waitsForTime?.(healed) === true) {
        waited++;
        return null;
      }
      return 'busy';
    },
    quietVerdict: (w) => judged(heal(w)),
    waited: () => waited,
    steadyState: (w) => w.engines.length === options.engines,
    steady(e, m) {
      return e.kind === 'answer' ? e.answer === modes[m] : kindOf(e).group === 'engine' || kindOf(e).steadyStep === true;
    },
  };
}

/**
 * The same on packed states: the tests that read one slot are done on the
 * vector; quiet, where the packed system has its own test (`packed/quiet.ts`),
 * by replaying its programs, with the unpacked world asked only for the
 * verdict at a quiet state; the rest on the unpacked world. With `verify`
 * the object test is asked too, and a difference throws.
 */
export function packedOutboxLiveness(objects: OutboxLiveness, system: PackedOutbox, engines: number, verify = false): SteadyLiveness<Int32Array, WorldEvent> {
  const g = system.layout.globals;
  const quiet = system.quiet ?? null;
  /** Whether an engine is not idle (then the state is busy, whatever else holds). */
  const busy = (s: Int32Array): boolean => {
    for (let k = 0; k < s[g + L.ENGINE_COUNT]; k++) if (system.tables.procs.value(s[g + L.ENGINES + k])?.state !== 'idle') return true;
    return false;
  };
  return {
    properties: objects.properties,
    modes: objects.modes,
    healStepsMax: objects.healStepsMax,
    atRest(s) {
      if (busy(s)) return 'busy';
      if (quiet === null) return objects.atRest(system.unpack(s));
      let v: Violation | null | 'busy';
      try {
        v = quiet(s) ? objects.quietVerdict(system.unpack(s)) : 'busy';
      } catch (err) {
        // A decision broke in the packed test's walk (a program derived afresh): the object test walks the same
        // passes and says which steps led there (probe-position.ts), so that the fault's trace reaches the decision.
        if (ruleFaultOf(err) === null) throw err;
        objects.atRest(system.unpack(s));
        throw err;
      }
      if (verify) {
        const slow = objects.atRest(system.unpack(s));
        if (JSON.stringify(slow) !== JSON.stringify(v)) throw new Error(`packed quiet test: ${JSON.stringify(v)}, the object system says ${JSON.stringify(slow)}`);
      }
      return v;
    },
    // atRest's first test alone.
    busy,
    steadyState: (s) => s[g + L.ENGINE_COUNT] === engines,
    steady: (e, m) => objects.steady(e, m),
  };
}

/**
 * The packed symmetry as the liveness search of an unreduced search uses it
 * (`livenessSymmetry` in explore-packed.ts): a state the symmetry cannot
 * rename (a claim with fields it does not know) is printed as itself, a
 * class of one, so the search goes on where the symmetric search would be
 * refused. Whether a state can be renamed does not depend on its pids, so
 * every state of a class is printed the same way.
 */
export function livenessSymmetry(system: PackedOutbox): Symmetry<Int32Array, WorldEvent> {
  const symmetry = packedSymmetry(system);
  const width = system.width;
  return {
    ...symmetry,
    print(s, out) {
      try {
        symmetry.print(s, out);
      } catch (err) {
        if (!(err instanceof Unrepresentable)) throw err;
        fingerprintInts(s, width, out);
      }
    },
  };
}
