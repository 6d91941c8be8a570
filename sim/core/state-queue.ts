/**
 * A first-in first-out queue of fixed-width integer vectors (the explorer's
 * frontier), stored in chunks of typed arrays: 4 bytes per int and no object
 * per state. Chunks are dropped once read, so the queue holds only the
 * states not yet expanded.
 */

const CHUNK_STATES = 1 << 14;

export class StateQueue {
  private chunks: Int32Array[] = [];
  /** Position of the next state to read in chunks[0]. */
  private head = 0;
  /** States written to the last chunk. */
  private tail = CHUNK_STATES;
  length = 0;

  constructor(readonly width: number) {}

  push(state: Int32Array): void {
    if (this.tail === CHUNK_STATES) {
      this.chunks.push(new Int32Array(CHUNK_STATES * this.width));
      this.tail = 0;
    }
    this.chunks[this.chunks.length - 1].set(state, this.tail * this.width);
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
    return this.chunks.length * CHUNK_STATES * this.width * 4;
  }
}
