/**
 * Every world of the suite, searched as `check` searches it (liveness,
 * symmetry) on the packed explorer in verify mode: each event list, step
 * and verdict also computed through the object system, any difference
 * throws. A key that dropped something a step reads gives a wrong step
 * somewhere in these worlds. Bounded per world: the first states of each
 * (the heavy operator worlds to their records' later epochs).
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../model/catalog/index.ts';
import { steppersFor } from './check.ts';
import { exploreOptions } from './outbox/explore-options.ts';
import { exploreOutbox } from './outbox/explore-outbox.ts';
import { smallWorlds } from './small-worlds.ts';

/** States searched per world in verify mode (verify steps every transition twice, through the object system too). */
const STATES = 6_000;

describe('the suite in verify mode', () => {
  it.each(smallWorlds(false).map((w) => [w.name, w] as const))('%s: the packed search agrees with the object system at every step', (_name, world) => {
    const options = exploreOptions(world.sizes);
    const steppers = steppersFor(failClosed, null);
    const bounds = { statesMax: STATES, liveness: true, symmetry: true, stopAtFirst: false };
    const verified = exploreOutbox(options, { rules: failClosed }, steppers, bounds, { verify: true });
    const plain = exploreOutbox(options, { rules: failClosed }, steppers, bounds);
    expect(verified.explorer).toBe('packed');
    expect([verified.states, verified.transitions, verified.violations.length]).toEqual([plain.states, plain.transitions, plain.violations.length]);
  }, 120_000);
});
