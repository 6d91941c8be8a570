/**
 * The memo of the programs of the events that are not an engine's: entries
 * without any event share one value (a suite world makes tens of thousands
 * of entries, most of them empty), entries with events keep their own, in
 * the order listed, derived middle first.
 */
import { describe, expect, it } from 'vitest';
import type { WorldEvent } from '../world.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import type { PackedContext } from './context.ts';
import { worldPrograms } from './world-programs.ts';

describe('worldPrograms', () => {
  it('shares one empty entry between prefixes that list no event, and derives the others in listing order', () => {
    const restart: WorldEvent = { kind: 'restart' } as WorldEvent;
    const corrupt: WorldEvent = { kind: 'tear-record', id: 'a' } as WorldEvent;
    const derived: WorldEvent[] = [];
    const programOf = new Map<WorldEvent, Int32Array>([
      [restart, Int32Array.of(1)],
      [corrupt, Int32Array.of(2)],
    ]);
    const c = {
      options: exploreOptions(EXPLORE_DEFAULTS),
      ids: ['a'],
      skew: false,
      transitions: {
        programFor: (_s: Int32Array, e: WorldEvent) => (derived.push(e), programOf.get(e)),
        holderAlive: () => 0,
      },
    } as unknown as PackedContext;
    // Slot 0 of a state says what it lists: 0 nothing, 1 a restart (middle) and a corruption (last).
    const programs = worldPrograms(c, {
      middle: (s, out) => void (s[0] === 1 && out.push(restart)),
      last: (s, out) => void (s[0] === 1 && out.push(corrupt)),
    });
    const quiet1 = programs.memoised(Int32Array.of(0), 0);
    const quiet2 = programs.memoised(Int32Array.of(0), 1);
    expect(quiet1).not.toBeNull();
    expect(quiet2).toBe(quiet1);
    expect(quiet1?.middleEvents).toEqual([]);
    expect(quiet1?.last).toEqual([]);
    const busy = programs.memoised(Int32Array.of(1), 2);
    expect(busy).not.toBe(quiet1);
    expect(busy?.middleEvents).toEqual([restart]);
    expect(busy?.lastEvents).toEqual([corrupt]);
    expect(busy?.middle).toEqual([Int32Array.of(1)]);
    expect(busy?.last).toEqual([Int32Array.of(2)]);
    expect(derived).toEqual([restart, corrupt]);
    // The memo answers the same prefix with the same entry, deriving nothing again.
    expect(programs.memoised(Int32Array.of(1), 2)).toBe(busy);
    expect(derived).toHaveLength(2);
  });
});
