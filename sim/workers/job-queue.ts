/**
 * The work of one `check` (its small worlds and its seeds) as one queue in
 * shared memory, which the main thread and every worker thread take from
 * themselves (Atomics), without asking the main thread: a thread that ends a
 * world while the main thread is searching one of its own (a synchronous
 * loop of a second or more) starts its next piece at once instead of
 * waiting for the main thread's event loop to hand it out.
 *
 * Worlds are taken from both ends of one order: the main thread from the
 * front (the suite's first world, then the heaviest), worker threads, once
 * the seeds are out, from the back (the lightest first), so that what is
 * left at the end is small and no thread waits long for another. Seeds are
 * taken in consecutive chunks from one cursor, so the seeds run are always a prefix when the handing out
 * stops early. Which thread runs what changes nothing but speed: results are
 * kept by world index and merged by seed (see pool.ts).
 */

/** Seeds per task sent to a thread: large enough to amortise messaging. */
export const THREAD_CHUNK_SEEDS = 250;
/** Seeds per task the main thread runs between turns of its event loop (which feeds the threads). */
export const MAIN_CHUNK_SEEDS = 25;

/**
 * Seeds of the next task for a thread: {@link THREAD_CHUNK_SEEDS} while much
 * is left, then smaller (a share of what is left, down to the main thread's
 * chunk), so that when the seeds run out no thread still holds a queue of
 * large tasks while the others wait for it (measured: 0.11 to 0.19 s of the
 * main thread idle at the end of 20,000 seeds with fixed chunks).
 */
export function threadChunk(remaining: number, workers: number): number {
  return Math.max(MAIN_CHUNK_SEEDS, Math.min(THREAD_CHUNK_SEEDS, Math.ceil(remaining / (4 * workers))));
}

/** Ints of the queue's header (then the world order, one int per world). */
const LOCK = 0;
const FRONT = 1;
const BACK = 2;
/** Worlds at or after this suite index are not started, and a search of one stops (`--stop-on-first`). */
const WORLD_END = 3;
const SEED_NEXT = 4;
const SEED_TO = 5;
/** Nonzero: hand out nothing more, and stop the searches running (an interrupt, or a failure). */
const STOP = 6;
/** Pieces handed out so far (to any thread): once the queue hands out nothing more, the results to wait for. */
const TAKEN = 7;
/** Worlds in the order; after the order, one flag per world (by suite index): nonzero once a search of it has ended somewhere. */
const WORLDS = 8;
/** Nonzero: every thread takes the lowest suite index left, whatever the order (`bySuiteIndex`). */
const BY_INDEX = 9;
const HEADER = 10;

/** A piece of work taken from the queue. */
export type JobPiece = { kind: 'world'; index: number } | { kind: 'seeds'; from: number; to: number };

/** The queue over its shared buffer; each thread makes its own view of the same buffer. */
export class JobQueue {
  private readonly ints: Int32Array;

  private constructor(readonly buffer: SharedArrayBuffer) {
    this.ints = new Int32Array(buffer);
  }

  /** A queue of the worlds in `order` (suite indices, the front's order) and seeds [from, to). */
  static create(order: readonly number[], from: number, to: number): JobQueue {
    // The order is a permutation of the suite's indices, so a flag per entry covers every world.
    const q = new JobQueue(new SharedArrayBuffer((HEADER + 2 * order.length) * 4));
    q.ints.set(order, HEADER);
    q.ints[WORLDS] = order.length;
    q.ints[FRONT] = 0;
    q.ints[BACK] = order.length;
    q.ints[WORLD_END] = order.length;
    q.ints[SEED_NEXT] = from;
    q.ints[SEED_TO] = to;
    return q;
  }

  /** The queue another thread created, from its buffer. */
  static attach(buffer: SharedArrayBuffer): JobQueue {
    return new JobQueue(buffer);
  }

  /** Runs `f` holding the queue's lock (a few loads and stores: a spin is shorter than any wait). */
  private locked<T>(f: () => T): T {
    while (Atomics.compareExchange(this.ints, LOCK, 0, 1) !== 0) {
      // Another thread holds it for a few instructions.
    }
    try {
      return f();
    } finally {
      Atomics.store(this.ints, LOCK, 0);
    }
  }

  get stopped(): boolean {
    return Atomics.load(this.ints, STOP) !== 0;
  }

  /** Hands out nothing more; searches running stop at their next look. */
  stop(): void {
    Atomics.store(this.ints, STOP, 1);
  }

  /** Whether the search of world `index` should end now (stopped, or a world before it violated under `--stop-on-first`). */
  worldCut(index: number): boolean {
    return this.stopped || index >= Atomics.load(this.ints, WORLD_END);
  }

  /**
   * Records that a search of world `index` has ended on this thread; true
   * when it is the first to end (the main thread may search a world a thread
   * holds as well: thread-pieces.ts). Each side's search stops at its next
   * look once the other's has ended ({@link worldDone}).
   */
  claimWorldDone(index: number): boolean {
    return Atomics.compareExchange(this.ints, HEADER + this.ints[WORLDS] + index, 0, 1) === 0;
  }

  /** Whether a search of world `index` has ended somewhere. */
  worldDone(index: number): boolean {
    return Atomics.load(this.ints, HEADER + this.ints[WORLDS] + index) !== 0;
  }

  /** Suite index from which no world is handed out or kept (the suite's length until a `--stop-on-first` violation). */
  get worldEnd(): number {
    return Atomics.load(this.ints, WORLD_END);
  }

  /** No world at or after suite index `index` is handed out, and searches of such worlds stop. */
  endWorldsAt(index: number): void {
    this.locked(() => {
      this.ints[WORLD_END] = Math.min(this.ints[WORLD_END], index);
    });
  }

  /** Hands out no seed from `seed` on. */
  endSeedsAt(seed: number): void {
    this.locked(() => {
      this.ints[SEED_TO] = Math.min(this.ints[SEED_TO], seed);
    });
  }

  /**
   * Pieces handed out so far. Once a take has come back empty the queue
   * never hands out again (its ends only move towards each other), so this
   * is then the final count.
   */
  get taken(): number {
    return Atomics.load(this.ints, TAKEN);
  }

  /** Seeds not yet handed out. */
  get seedsLeft(): number {
    return Math.max(0, Atomics.load(this.ints, SEED_TO) - Atomics.load(this.ints, SEED_NEXT));
  }

  /** The next world from the front (`front`: worker threads) or the back (the main thread), or null. */
  takeWorld(front: boolean): JobPiece | null {
    return this.locked(() => {
      const end = this.ints[WORLD_END];
      while (!this.stopped && this.ints[FRONT] < this.ints[BACK]) {
        if (this.ints[BY_INDEX] !== 0) this.lowestFirst();
        const index = front || this.ints[BY_INDEX] !== 0 ? this.ints[HEADER + this.ints[FRONT]++] : this.ints[HEADER + --this.ints[BACK]];
        if (index < end) {
          this.ints[TAKEN]++;
          return { kind: 'world', index };
        }
      }
      return null;
    });
  }

  /**
   * From now on every thread takes the world of the lowest suite index left.
   * Asked once a world stops at its bound of states: the suite's own bound
   * (small-worlds.ts) is counted over the suite's prefix, so the
   * worlds at its front decide when it ends, and searching the heaviest
   * first would spend a minute on worlds whose results are then dropped.
   */
  bySuiteIndex(): void {
    Atomics.store(this.ints, BY_INDEX, 1);
  }

  /** Moves the lowest suite index left to the front of what is left (under the lock). */
  private lowestFirst(): void {
    const front = HEADER + this.ints[FRONT];
    let low = front;
    for (let k = front + 1; k < HEADER + this.ints[BACK]; k++) if (this.ints[k] < this.ints[low]) low = k;
    const t = this.ints[front];
    this.ints[front] = this.ints[low];
    this.ints[low] = t;
  }

  /** The next `size` seeds (fewer at the end), or null. */
  takeSeeds(size: number): JobPiece | null {
    return this.locked(() => {
      const from = this.ints[SEED_NEXT];
      const to = Math.min(this.ints[SEED_TO], from + size);
      if (this.stopped || from >= to) return null;
      this.ints[SEED_NEXT] = to;
      this.ints[TAKEN]++;
      return { kind: 'seeds', from, to };
    });
  }
}
