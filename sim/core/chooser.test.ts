import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { Arc4Stream, childStream } from './chooser.ts';

/** seedrandom's own draws, the reference the light ARC4 stream must repeat. */
function reference(text: string, draws: number): number[] {
  const rng = seedrandom(text);
  return Array.from({ length: draws }, () => rng.quick());
}

describe('Arc4Stream', () => {
  it("repeats seedrandom's quick() draws for every seed and subsystem a run uses", () => {
    const names = ['schedule', 'engine', 'broker', 'process', 'producer', 'operator', 'fault', 'swarm'];
    for (let seed = 0; seed < 300; seed++) {
      for (const name of names) {
        const stream = childStream(seed, name);
        const got = Array.from({ length: 40 }, () => stream.next());
        expect(got).toEqual(reference(`${seed}/${name}`, 40));
      }
    }
  });

  it('repeats seedrandom for empty, long (key wraps past 256 bytes) and non-ASCII texts', () => {
    for (const text of ['', 'x', 'é/ü', 'ab'.repeat(200), `${'z'.repeat(255)}q`, '\u{1F600}'.repeat(90)]) {
      const stream = new Arc4Stream(text);
      expect(Array.from({ length: 300 }, () => stream.next())).toEqual(reference(text, 300));
    }
  });
});
