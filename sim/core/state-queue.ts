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
  private chunks: Chunk[] = [];
  private wide = false;
  /** Position of the next state to read in chunks[0]. */
  private head = 0;
  /** States written to the last chunk. */
  private tail = CHUNK_STATES;
  length = 0;

  constructor(readonly width: number) {}

  push(state: Int32Array): void {
    const w = this.width;
    if (!this.wide) {
      for (let i = 0; i < w; i++) {
        if ((state[i] & 0xffff) !== state[i]) {
          this.widen();
          break;
        }
      }
    }
    if (this.tail === CHUNK_STATES) {
      this.chunks.push(this.wide ? new Int32Array(CHUNK_STATES * w) : new Uint16Array(CHUNK_STATES * w));
      this.tail = 0;
    }
    const chunk = this.chunks[this.chunks.length - 1];
    const to = this.tail * w;
    for (let i = 0; i < w; i++) chunk[to + i] = state[i];
    this.tail++;
    this.length++;
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
      this.chunks.shift();
      this.head = 0;
      if (this.chunks.length === 0) this.tail = CHUNK_STATES;
    }
  }

  /** Bytes of the chunks held. */
  get bytes(): number {
    return this.chunks.length * CHUNK_STATES * this.width * (this.wide ? 4 : 2);
  }

  /** True once a value needed 32 bits. */
  get isWide(): boolean {
    return this.wide;
  }

  private widen(): void {
    this.wide = true;
    this.chunks = this.chunks.map((c) => Int32Array.from(c));
  }
}
