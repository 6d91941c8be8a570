/**
 * Seeded choices. One root seed, one child stream per subsystem, derived by
 * name, so that adding a draw in one subsystem never shifts another's
 * (one root seed, a child seed per subsystem). Nothing else draws chance.
 */
import seedrandom from 'seedrandom';

/** A stream of uniform draws in [0, 1). */
export interface Stream {
  next(): number;
}

/** Picks among weighted options; the one place where chance enters a run. */
export interface Chooser {
  /** A uniform integer in [0, n) drawn from the named subsystem's stream. */
  int(subsystem: string, n: number): number;
  /** An index drawn with the given relative weights from the named stream. */
  weighted(subsystem: string, weights: readonly number[]): number;
}

/** A child stream for a subsystem of a root seed. */
export function childStream(rootSeed: number, subsystem: string): Stream {
  const rng = seedrandom(`${rootSeed}/${subsystem}`);
  return { next: () => rng.quick() };
}

/** The seeded chooser: lazily creates one stream per subsystem name. */
export function seededChooser(rootSeed: number): Chooser {
  const streams = new Map<string, Stream>();
  const stream = (name: string): Stream => {
    let s = streams.get(name);
    if (s === undefined) {
      s = childStream(rootSeed, name);
      streams.set(name, s);
    }
    return s;
  };
  const weighted = (name: string, weights: readonly number[]): number => {
    let total = 0;
    for (const w of weights) total += w;
    if (!(total > 0)) throw new Error(`no positive weight to choose from in ${name}`);
    let r = stream(name).next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    // Floating point left a sliver: the last positive weight takes it.
    for (let i = weights.length - 1; i >= 0; i--) if (weights[i] > 0) return i;
    return 0;
  };
  return {
    int: (name, n) => Math.floor(stream(name).next() * n),
    weighted,
  };
}
