/**
 * `statesMax` is exact in both explorers: the initial state is one of the
 * states stored, so a bound of 1 stops before any successor is stored (it
 * once stored a second state before the bound was first looked at); and
 * the bound is met only when a state past it would be stored, so a world of
 * exactly `statesMax` states is a complete search (it was once called
 * partial, exit 3, 'not a proof').
 */
import { describe, expect, it } from 'vitest';
import { explore } from './explore.ts';
import { explorePacked } from './explore-packed.ts';
import { chain } from './test-chain.ts';
import type { TransitionSystem } from './system.ts';

const LENGTH = 100;

/** A chain of states 0, 1, ..., LENGTH - 1, packed. */
const packedChain = chain(LENGTH);

/** The same chain as objects. */
const objectChain: TransitionSystem<number, string> = {
  initial: () => 0,
  choices: (s) => (s < LENGTH - 1 ? [{ group: 'chain', weight: 1, events: ['next'] }] : []),
  step: (s) => ({ state: s + 1, tags: [] }),
  label: (e) => e,
  key: (s) => String(s),
  properties: [],
};

describe('statesMax', () => {
  it.each([1, 2, 3, 50])('%i: both explorers store exactly that many states and say the bound stopped them', (statesMax) => {
    const expected = { states: statesMax, stoppedBy: 'max-states', complete: false };
    expect(explorePacked(packedChain, { statesMax })).toMatchObject(expected);
    expect(explore(objectChain, { statesMax })).toMatchObject(expected);
  });
  it.each([LENGTH, LENGTH + 1])('%i: a world of exactly that many states or fewer is searched whole (the bound is met only by a state past it)', (statesMax) => {
    const expected = { states: LENGTH, stoppedBy: null, complete: true };
    expect(explorePacked(packedChain, { statesMax })).toMatchObject(expected);
    expect(explore(objectChain, { statesMax })).toMatchObject(expected);
  });
});
