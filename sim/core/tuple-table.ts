/**
 * A hash table from short tuples of 32-bit integers to dense indices (0, 1,
 * 2, ... in insertion order). Memo tables of the packed explorer are keyed by
 * such tuples; a `Map` keyed by strings would cost a string per lookup on the
 * hot path. The tuples live in one growable pool; the caller keeps the values
 * in an array indexed by the returned index.
 */

/**
 * Hash of the first `length` ints of `buf` (FNV-1a over 32-bit words, then
 * an avalanche), in 30 bits: a value V8 holds as a small integer. A 32-bit
 * hash returned from a call not inlined (most, under check's inlining
 * budget) was boxed as a heap number three times in four: an allocation per
 * table probe, 16 MB of the small-world suite's garbage.
 */
export function hashInts(buf: Int32Array, length: number, seed = 0x811c9dc5): number {
  let h = seed ^ length;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ buf[i], 0x01000193) ^ (h >>> 15);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & 0x3fffffff;
}

/**
 * Both 32-bit halves of a vector's 64-bit fingerprint in one pass, written
 * to `into[0]` and `into[1]`: two independent multiply-xorshift lanes.
 */
export function fingerprintInts(buf: Int32Array, length: number, into: Uint32Array): void {
  let a = 0x811c9dc5 ^ length;
  let b = 0x2545f491;
  for (let i = 0; i < length; i++) {
    const v = buf[i];
    a = Math.imul(a ^ v, 0x01000193) ^ (a >>> 15);
    b = Math.imul(b ^ v, 0x5bd1e995);
    b ^= b >>> 13;
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  a = Math.imul(a, 0xc2b2ae35);
  b ^= b >>> 16;
  b = Math.imul(b, 0x7feb352d);
  b ^= b >>> 15;
  b = Math.imul(b, 0x846ca68b);
  into[0] = a ^ (a >>> 16);
  into[1] = b ^ (b >>> 16);
}

export class TupleTable {
  /** Entry index + 1 per slot; 0 is empty. */
  private slots = new Int32Array(1 << 10);
  private mask = (1 << 10) - 1;
  private pool = new Int32Array(1 << 12);
  private poolLength = 0;
  /** Per entry: offset into the pool, tuple length, hash. */
  private entries = new Int32Array(3 << 8);
  size = 0;

  /** The index of the tuple held in `buf[0..length)`, or -1. */
  find(buf: Int32Array, length: number): number {
    const h = hashInts(buf, length);
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const e = this.slots[i] - 1;
      if (e < 0) return -1;
      if (this.entries[3 * e + 2] === h && this.entries[3 * e + 1] === length && this.same(e, buf, length)) return e;
    }
  }

  /** Adds the tuple (which must be absent) and returns its index. */
  add(buf: Int32Array, length: number): number {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    if (this.poolLength + length > this.pool.length) {
      const p = new Int32Array(Math.max(this.pool.length * 2, this.poolLength + length));
      p.set(this.pool);
      this.pool = p;
    }
    if (3 * (this.size + 1) > this.entries.length) {
      const e = new Int32Array(this.entries.length * 2);
      e.set(this.entries);
      this.entries = e;
    }
    const e = this.size++;
    // An element loop: a subarray to `set` from was an allocation per entry added.
    const pool = this.pool;
    const at = this.poolLength;
    for (let k = 0; k < length; k++) pool[at + k] = buf[k];
    this.entries[3 * e] = this.poolLength;
    this.entries[3 * e + 1] = length;
    this.entries[3 * e + 2] = hashInts(buf, length);
    this.poolLength += length;
    this.place(e);
    return e;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.slots.byteLength + this.pool.byteLength + this.entries.byteLength;
  }

  private same(e: number, buf: Int32Array, length: number): boolean {
    const off = this.entries[3 * e];
    for (let k = 0; k < length; k++) if (this.pool[off + k] !== buf[k]) return false;
    return true;
  }

  private place(e: number): void {
    let i = this.entries[3 * e + 2] & this.mask;
    while (this.slots[i] !== 0) i = (i + 1) & this.mask;
    this.slots[i] = e + 1;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.mask = this.slots.length - 1;
    for (let e = 0; e < this.size; e++) this.place(e);
  }
}
