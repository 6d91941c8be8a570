/**
 * A first-in first-out queue of fixed-width integer vectors (the explorer's
 * frontier), stored in chunks of typed arrays: no object per state. Vectors
 * are kept as 16-bit words while every value fits (2 bytes an int), and the
 * queue widens itself to 32 bits the first time one does not. Chunks are
 * dropped once read, so the queue holds only the states not yet expanded.
 */

const CHUNK_STATES = 1 << 14;

type Chunk = Uint16Array | Int32Array;

export class StateQueue {
  /**
   * Made with its first chunk (every search pushes its initial state at
   * once): an array made empty has elements of another kind than one that
   * holds chunks, and code optimised on one queue's array was thrown away
   * at the next queue's (see docs/performance.md, 'The explorer').
   */
  private chunks: Chunk[];
  private wide = false;
  /** One chunk already read, kept to be written again. */
  private spare: Chunk | null = null;
  /** Position of the next state to read in chunks[0]. */
  private head = 0;
  /** States written to the last chunk. */
  private tail = 0;
  length = 0;

  constructor(readonly width: number) {
    this.chunks = [new Uint16Array(CHUNK_STATES * width)];
  }

  push(state: Int32Array): void {
    const w = this.width;
    if (this.tail === CHUNK_STATES) this.addChunk();
    const chunk = this.chunks[this.chunks.length - 1];
    const to = this.tail * w;
    // Copy first and check after: a value that did not fit 16 bits reads back changed.
    let fits = true;
    for (let i = 0; i < w; i++) {
      chunk[to + i] = state[i];
      if (chunk[to + i] !== state[i]) fits = false;
    }
    if (!fits) {
      this.widen();
      this.chunks[this.chunks.length - 1].set(state, to);
    }
    this.tail++;
    this.length++;
  }

  /** A chunk to write after the last one (the spare if there is one). */
  private addChunk(): void {
    const w = this.width;
    this.chunks.push(this.spare ?? (this.wide ? new Int32Array(CHUNK_STATES * w) : new Uint16Array(CHUNK_STATES * w)));
    this.spare = null;
    this.tail = 0;
  }

  /** Copies the oldest state into `out` and removes it. */
  shift(out: Int32Array): void {
    if (this.length === 0) throw new Error('state queue: shift from an empty queue');
    const w = this.width;
    const chunk = this.chunks[0];
    // An element loop: a subarray view per state would cost an allocation.
    const from = this.head * w;
    for (let i = 0; i < w; i++) out[i] = chunk[from + i];
    this.head++;
    this.length--;
    if (this.head === CHUNK_STATES || this.length === 0) {
      // A read chunk is kept for the next one to be written: fresh memory costs page faults and collections.
      this.spare = this.chunks.shift() ?? null;
      this.head = 0;
      if (this.chunks.length === 0) this.tail = CHUNK_STATES;
    }
  }

  /** Bytes of the chunks held (the spare among them). */
  get bytes(): number {
    return (this.chunks.length + (this.spare === null ? 0 : 1)) * CHUNK_STATES * this.width * (this.wide ? 4 : 2);
  }

  /** True once a value needed 32 bits. */
  get isWide(): boolean {
    return this.wide;
  }

  private widen(): void {
    this.wide = true;
    this.spare = null;
    // In place: an array made by `map` may have another elements kind (see `chunks`).
    for (let i = 0; i < this.chunks.length; i++) this.chunks[i] = Int32Array.from(this.chunks[i]);
  }
}
