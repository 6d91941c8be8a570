/**
 * Every world of the suite, searched as `check` searches it (liveness,
 * symmetry) on the packed explorer in verify mode: each event list, step
 * and verdict also computed through the object system, any difference
 * throws. A key that dropped something a step reads gives a wrong step
 * somewhere in these worlds (all but the one of stable identities, which
 * the packed explorer does not hold). Bounded per world: the first states of each
 * (the heavy operator worlds to their records' later epochs).
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../model/catalog/index.ts';
import { steppersFor } from './check.ts';
import { exploreOptions } from './outbox/explore-options.ts';
import { exploreOutbox } from './outbox/explore-outbox.ts';
import { smallWorlds } from './small-worlds.ts';
import { packedKindsHold } from './outbox/packed/kinds.ts';

/** States searched per world in verify mode (verify steps every transition twice, through the object system too). */
const STATES = 6_000;

/** The suite's worlds the packed explorer holds: all but the one of stable identities (restarts under old pids), which is the object system's search. */
const PACKED_WORLDS = smallWorlds(false).filter((w) => packedKindsHold(exploreOptions(w.sizes)));

describe('the suite in verify mode', () => {
  it('leaves out only the world of stable identities', () => {
    const held = PACKED_WORLDS.map((w) => w.name);
    expect(smallWorlds(false).map((w) => w.name).filter((name) => !held.includes(name))).toEqual(['1 body, attempts 1, stable identities']);
  });

  it.each(PACKED_WORLDS.map((w) => [w.name, w] as const))('%s: the packed search agrees with the object system at every step', (_name, world) => {
    const options = exploreOptions(world.sizes);
    const steppers = steppersFor(failClosed, null);
    const bounds = { statesMax: STATES, liveness: true, symmetry: true, stopAtFirst: false };
    const verified = exploreOutbox(options, { rules: failClosed }, steppers, bounds, { verify: true });
    const plain = exploreOutbox(options, { rules: failClosed }, steppers, bounds);
    expect(verified.explorer).toBe('packed');
    expect([verified.states, verified.transitions, verified.violations.length]).toEqual([plain.states, plain.transitions, plain.violations.length]);
  }, 120_000);
});
