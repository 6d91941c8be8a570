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

/**
 * Each slot holds a tuple's hash beside where the tuple sits in the pool, and
 * the pool holds each tuple after its length and index: a lookup reads the
 * slot, then (when the hashes agree) one place in the pool. A table of
 * entries between slot and pool cost a third dependent read per lookup, and
 * in the large tables each read waits on memory: at 3 engines the prefix
 * lookups and property checks took 13 to 21% less time with two reads (CPU
 * profiles, against the unchanged transition code), and a whole search missed
 * the first-level data cache 6.5% less often (simulated, 300,000 states).
 */
export class TupleTable {
  /** Per slot: the tuple's hash, and its place in the pool + 1 (0: an empty slot). */
  private slots = new Int32Array(2 << 10);
  private mask = (1 << 10) - 1;
  /** Per tuple: its length, its index, then its ints. */
  private pool = new Int32Array(1 << 12);
  private poolLength = 0;
  size = 0;

  /** The index of the tuple held in `buf[0..length)`, or -1. */
  find(buf: Int32Array, length: number): number {
    const h = hashInts(buf, length);
    const slots = this.slots;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const at = slots[2 * i + 1];
      if (at === 0) return -1;
      if (slots[2 * i] === h && this.same(at - 1, buf, length)) return this.pool[at];
    }
  }

  /** Adds the tuple (which must be absent) and returns its index. */
  add(buf: Int32Array, length: number): number {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    if (this.poolLength + length + 2 > this.pool.length) {
      const p = new Int32Array(Math.max(this.pool.length * 2, this.poolLength + length + 2));
      p.set(this.pool);
      this.pool = p;
    }
    const e = this.size++;
    // An element loop: a subarray to `set` from was an allocation per entry added.
    const pool = this.pool;
    const at = this.poolLength;
    pool[at] = length;
    pool[at + 1] = e;
    for (let k = 0; k < length; k++) pool[at + 2 + k] = buf[k];
    this.poolLength += length + 2;
    this.place(hashInts(buf, length), at + 1);
    return e;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.slots.byteLength + this.pool.byteLength;
  }

  /** Whether the tuple at pool offset `off` is `buf[0..length)`. */
  private same(off: number, buf: Int32Array, length: number): boolean {
    const pool = this.pool;
    if (pool[off] !== length) return false;
    for (let k = 0; k < length; k++) if (pool[off + 2 + k] !== buf[k]) return false;
    return true;
  }

  private place(h: number, stored: number): void {
    const slots = this.slots;
    let i = h & this.mask;
    while (slots[2 * i + 1] !== 0) i = (i + 1) & this.mask;
    slots[2 * i] = h;
    slots[2 * i + 1] = stored;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let k = 0; k < old.length; k += 2) if (old[k + 1] !== 0) this.place(old[k], old[k + 1]);
  }
}
