import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import { steppersFor } from '../check.ts';
import { swarmOptions } from '../outbox/options.ts';
import { FAIL_CLOSED_FIXED, objectSide, packedSide, packedWalk, packedWorld, stepInputRepeats } from './packed-seeds.ts';

const steppers = steppersFor(failClosed, null);
const worlds = Array.from({ length: 24 }, (_, i) => swarmOptions(i + 1, FAIL_CLOSED_FIXED));

describe('packed seeds (the bench section on the packed route)', () => {
  it('walks as many steps as each seed ran on the object world, or fewer where events run out, and skips only worlds it cannot list', () => {
    const lengths: number[] = [];
    const object = objectSide(worlds, steppers, lengths);
    expect(lengths.reduce((a, b) => a + b, 0)).toBe(object.steps);
    expect(object.steps).toBeGreaterThan(24 * 10);
    const packed = packedSide(worlds, steppers, lengths, 'per-seed');
    const listed = worlds.filter((o) => packedWorld(o, { rules: failClosed }, steppers) !== null).length;
    expect(packed.skipped).toBe(worlds.length - listed);
    expect(listed).toBeGreaterThan(0);
    expect(packed.steps).toBeGreaterThan(0);
    expect(packed.steps).toBeLessThanOrEqual(object.steps);
  });

  it("draws with the seed's chooser: a walk is the same walk again, and another seed's differs", () => {
    const o = worlds.find((w) => packedWorld(w, { rules: failClosed }, steppers) !== null);
    if (o === undefined) throw new Error('no world of the first seeds is listed by the packed explorer');
    const trail = (seed: number): string => {
      const system = packedWorld(o, { rules: failClosed }, steppers);
      if (system === null) throw new Error('unlisted');
      const states: string[] = [];
      const seen = { ...system, apply: (s: Int32Array, e: Parameters<typeof system.apply>[1], out: Int32Array) => (system.apply(s, e, out), states.push(out.join(','))) };
      packedWalk(seen, seed, 40);
      return states.join(';');
    };
    expect(trail(7)).toBe(trail(7));
    expect(trail(7)).not.toBe(trail(8));
  });

  it("counts a step's inputs met again: more often as the key holds fewer options, never every step", () => {
    const { 'may-read': full, 'attempts-broker': some, none } = stepInputRepeats(40, steppers);
    expect(full.steps).toBe(none.steps);
    expect(some.steps).toBe(none.steps);
    expect(full.repeats).toBeGreaterThan(0);
    expect(full.repeats).toBeLessThanOrEqual(some.repeats);
    expect(some.repeats).toBeLessThan(none.repeats);
    expect(none.repeats).toBeLessThan(none.steps / 2);
  });
});
