/**
 * Seeded choices. One root seed, one child stream per subsystem, derived by
 * name, so that adding a draw in one subsystem never shifts another's
 * (one root seed, a child seed per subsystem). Nothing else draws chance.
 */
/** A stream of uniform draws in [0, 1). */
export interface Stream {
  next(): number;
}

/** Picks among weighted options; the one place where chance enters a run. */
export interface Chooser {
  /** A uniform integer in [0, n) drawn from the named subsystem's stream. */
  int(subsystem: string, n: number): number;
  /** An index drawn with the given relative weights from the named stream (the first `n` of them: a caller's reused array may hold more). */
  weighted(subsystem: string, weights: readonly number[], n?: number): number;
}

/** How a child stream is made from its text (the bench swaps in seedrandom itself to time the previous build). */
let makeStream: (text: string) => Stream = (text) => new Arc4Stream(text);

/** A child stream for a subsystem of a root seed. */
export function childStream(rootSeed: number, subsystem: string): Stream {
  return makeStream(`${rootSeed}/${subsystem}`);
}

/**
 * Runs `fn` with child streams made by `make` (same draws required: the bench
 * times the previous build's seedrandom streams beside {@link Arc4Stream}).
 */
export function withStreams<T>(make: (text: string) => Stream, fn: () => T): T {
  const before = makeStream;
  makeStream = make;
  try {
    return fn();
  } finally {
    makeStream = before;
  }
}

/** 0, 1, ..., 255: RC4's state before its key is mixed in. */
const IDENTITY: readonly number[] = Array.from({ length: 256 }, (_, k) => k);

/** Scratch for a stream's key while it is set up (set-up is synchronous, so one serves every stream). */
const KEY = new Uint8Array(256);

/**
 * seedrandom's ARC4 stream, draw for draw (`seedrandom(text).quick()`:
 * RC4 keyed by the text, the first 256 bytes dropped, four bytes a draw),
 * without what seedrandom does besides: mixing every new stream into its
 * global entropy pool through strings, which made a stream cost about 10 us
 * and a seed's streams a tenth of `check`. Every seed's draws, and so every
 * run and trace, are those of seedrandom (`chooser.test.ts` compares them).
 */
export class Arc4Stream implements Stream {
  // A plain array of small integers: a 256-byte typed array per stream is allocated off the heap, which cost more than the stream's draws.
  // Copied from the identity permutation: a packed array of small integers, set up by one copy.
  private readonly s: number[] = IDENTITY.slice();
  private i = 0;
  private j = 0;

  constructor(text: string) {
    // seedrandom's mixkey: the text's char codes smeared into a key of at most 256 bytes.
    const key = KEY;
    const keyLength = Math.max(1, Math.min(text.length, 256));
    // Only the key's first `keyLength` bytes are read: those are cleared, not all 256.
    key.fill(0, 0, keyLength);
    let smear = 0;
    for (let k = 0; k < text.length; k++) {
      smear ^= key[k & 255] * 19;
      key[k & 255] = (smear + text.charCodeAt(k)) & 255;
    }
    const s = this.s;
    let j = 0;
    // The key's index wraps without a division (a stream is set up per subsystem per seed).
    for (let k = 0, m = 0; k < 256; k++) {
      const t = s[k];
      j = (j + key[m] + t) & 255;
      s[k] = s[j];
      s[j] = t;
      if (++m === keyLength) m = 0;
    }
    this.drop256();
  }

  /** RC4's first 256 bytes, dropped as seedrandom drops them (the bytes of {@link bytes}, not summed). */
  private drop256(): void {
    const s = this.s;
    let i = this.i;
    let j = this.j;
    for (let n = 0; n < 256; n++) {
      i = (i + 1) & 255;
      const t = s[i];
      j = (j + t) & 255;
      s[i] = s[j];
      s[j] = t;
    }
    this.i = i;
    this.j = j;
  }

  /** The next `count` bytes, big-endian in one number (RC4's output, as seedrandom's `g`). */
  private bytes(count: number): number {
    const s = this.s;
    let i = this.i;
    let j = this.j;
    let r = 0;
    while (count-- > 0) {
      i = (i + 1) & 255;
      const t = s[i];
      j = (j + t) & 255;
      s[i] = s[j];
      s[j] = t;
      r = r * 256 + s[(s[i] + t) & 255];
    }
    this.i = i;
    this.j = j;
    return r;
  }

  next(): number {
    return this.bytes(4) / 0x100000000;
  }
}

/**
 * A light child stream for draws made once per seed over many names (the
 * swarm draws each kind's knob from a stream of its own): the name hashed
 * (FNV-1a) into the seed of a mulberry32 generator. Setting up an ARC4
 * stream ({@link childStream}) costs about 10 us; two dozen per seed would
 * add a tenth to a short run. A few draws per stream need no more.
 */
export function lightStream(rootSeed: number, name: string): Stream {
  return new Mulberry32(lightHash(lightSeed(rootSeed), name));
}

/** FNV-1a's offset basis: the hash of no text. */
const FNV_BASIS = 0x811c9dc5 | 0;

/**
 * The hash of a seed's prefix (`${rootSeed}/`) for {@link lightStream}: a
 * seed draws from two dozen light streams, so the prefix is hashed once and
 * each stream continues it with its name ({@link lightHash},
 * {@link lightStreamAt}), without building the stream's text.
 */
export function lightSeed(rootSeed: number): number {
  return lightHash(FNV_BASIS, `${rootSeed}/`);
}

/** FNV-1a continued over `text` from the hash `h` (of the text before it). */
export function lightHash(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** The light stream whose text hashes to `h`: `lightStreamAt(lightHash(lightSeed(seed), name))` draws as `lightStream(seed, name)`. */
export function lightStreamAt(h: number): Stream {
  return new Mulberry32(h);
}

/** A class, not a closure: tsx wraps each inner arrow function per call, which cost more than the draws. */
class Mulberry32 implements Stream {
  private a: number;

  /** `h`: the FNV-1a hash of the stream's text. */
  constructor(h: number) {
    this.a = h | 0;
  }

  next(): number {
    this.a = (this.a + 0x6d2b79f5) | 0;
    let t = Math.imul(this.a ^ (this.a >>> 15), 1 | this.a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/** A subsystem's stream in a {@link seededChooser}: made at its first draw that depends on it; until then, the draws it owes. */
interface Slot {
  stream: Stream | null;
  owed: number;
}

/**
 * The seeded chooser: one stream per subsystem name, made at the first draw
 * whose outcome depends on it. A draw among one option (`int(name, 1)`, or
 * one weight) is 0 whatever the stream gives; until the stream is made it
 * is only counted, and the stream, once made, is advanced past the draws
 * owed, so every later draw is the one it always was. A seed's stream that
 * only ever chooses among one option (the engine group of a world with one
 * engine and one id, say) is never set up (about 2 us an ARC4 stream, two or
 * three a seed).
 */
export function seededChooser(rootSeed: number): Chooser {
  /**
   * Each subsystem's stream (null until a draw depends on it) and the draws
   * of one option it owes, by name: one look-up a draw, a scan of a handful
   * of names (a run draws from about six subsystems), cheaper than hashing
   * into a map twice a step.
   */
  const names: string[] = [];
  const slots: Slot[] = [];
  const slot = (name: string): Slot => {
    for (let i = 0; i < names.length; i++) if (names[i] === name) return slots[i];
    const s: Slot = { stream: null, owed: 0 };
    names.push(name);
    slots.push(s);
    return s;
  };
  const stream = (name: string): Stream => {
    const s = slot(name);
    let made = s.stream;
    if (made === null) {
      made = childStream(rootSeed, name);
      for (let i = 0; i < s.owed; i++) made.next();
      s.owed = 0;
      s.stream = made;
    }
    return made;
  };
  /** A draw whose outcome is certain: the stream moves on (or owes the draw). */
  const pass = (name: string): void => {
    const s = slot(name);
    if (s.stream !== null) s.stream.next();
    else s.owed++;
  };
  const weighted = (name: string, weights: readonly number[], n: number = weights.length): number => {
    let total = 0;
    for (let i = 0; i < n; i++) total += weights[i];
    if (!(total > 0)) throw new Error(`no positive weight to choose from in ${name}`);
    // One positive weight: r = draw * w < w, so the loop below returns 0 (an infinite weight gives NaN, and 0 below).
    if (n === 1) {
      pass(name);
      return 0;
    }
    let r = stream(name).next() * total;
    for (let i = 0; i < n; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    // Floating point left a sliver: the last positive weight takes it.
    for (let i = n - 1; i >= 0; i--) if (weights[i] > 0) return i;
    return 0;
  };
  return {
    // floor(draw * 1) is 0 for every draw in [0, 1).
    int: (name, n) => {
      if (n === 1) {
        pass(name);
        return 0;
      }
      return Math.floor(stream(name).next() * n);
    },
    weighted,
  };
}
