import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { Arc4Stream, childStream, seededChooser, withStreams, type Stream } from './chooser.ts';

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

/** The chooser as it was: every stream made at its first draw, every draw taken from it. */
function eagerChooser(rootSeed: number) {
  const streams = new Map<string, Stream>();
  const stream = (name: string): Stream => {
    let s = streams.get(name);
    if (s === undefined) streams.set(name, (s = childStream(rootSeed, name)));
    return s;
  };
  return {
    int: (name: string, n: number) => Math.floor(stream(name).next() * n),
    weighted: (name: string, weights: readonly number[]) => {
      let total = 0;
      for (const w of weights) total += w;
      if (!(total > 0)) throw new Error(`no positive weight to choose from in ${name}`);
      let r = stream(name).next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i];
        if (r < 0) return i;
      }
      for (let i = weights.length - 1; i >= 0; i--) if (weights[i] > 0) return i;
      return 0;
    },
  };
}

describe('seededChooser', () => {
  it('draws what the eager chooser draws, over mixed calls with one option, several, and weights (one, several, infinite)', () => {
    // The calls themselves come from a stream of their own, so the sequences vary in kind, name and size.
    const script = new Arc4Stream('chooser-script');
    const names = ['schedule', 'engine', 'broker', 'fault', 'producer'];
    const weightSets: number[][] = [[3], [0.5], [Infinity], [1, 2], [0, 4], [5, 0, 1], [2, 2, 2, 2], [0.1, 0.2, 0.3]];
    let oneOption = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const lazy = seededChooser(seed);
      const eager = eagerChooser(seed);
      for (let call = 0; call < 150; call++) {
        const name = names[Math.floor(script.next() * names.length)];
        if (script.next() < 0.5) {
          const n = script.next() < 0.5 ? 1 : 1 + Math.floor(script.next() * 6);
          if (n === 1) oneOption++;
          expect(lazy.int(name, n)).toBe(eager.int(name, n));
        } else {
          const weights = weightSets[Math.floor(script.next() * weightSets.length)];
          if (weights.length === 1) oneOption++;
          expect(lazy.weighted(name, weights)).toBe(eager.weighted(name, weights));
        }
      }
    }
    expect(oneOption).toBeGreaterThan(5000);
  });

  it('draws over the first n weights of a longer array as over those n alone (a runner reuses its arrays)', () => {
    const weightSets: number[][] = [[3], [1, 2], [0, 4], [5, 0, 1], [2, 2, 2, 2], [0.1, 0.2, 0.3]];
    for (let seed = 1; seed <= 100; seed++) {
      const whole = seededChooser(seed);
      const prefix = seededChooser(seed);
      for (let call = 0; call < 60; call++) {
        const weights = weightSets[(seed + call) % weightSets.length];
        // What a reused array holds past the count: a weight that would win most draws if it were counted.
        const longer = [...weights, 1000, 7];
        expect(prefix.weighted('schedule', longer, weights.length)).toBe(whole.weighted('schedule', weights));
      }
    }
    // A single counted weight is certain, whatever follows it.
    expect(seededChooser(1).weighted('x', [2, 1000], 1)).toBe(0);
    expect(() => seededChooser(1).weighted('x', [0, 5], 1)).toThrow('no positive weight to choose from in x');
  });

  it('refuses weights with no positive one, as before, also a single one', () => {
    const c = seededChooser(1);
    expect(() => c.weighted('x', [0])).toThrow('no positive weight to choose from in x');
    expect(() => c.weighted('x', [0, 0])).toThrow('no positive weight to choose from in x');
  });

  it('sets up no stream whose draws are all among one option, and a stream drawn later from owes the earlier draws', () => {
    const made: string[] = [];
    const draws = withStreams(
      (text) => {
        made.push(text);
        return new Arc4Stream(text);
      },
      () => {
        const c = seededChooser(7);
        const out = [c.int('engine', 1), c.weighted('engine', [2]), c.int('fault', 1)];
        // `fault` owes one draw: its first real draw is its stream's second.
        out.push(c.int('fault', 1000));
        return out;
      },
    );
    expect(made).toEqual(['7/fault']);
    const fault = childStream(7, 'fault');
    fault.next();
    expect(draws).toEqual([0, 0, 0, Math.floor(fault.next() * 1000)]);
  });
});
