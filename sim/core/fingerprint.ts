/**
 * The explorer's visited set: 64-bit fingerprints of canonical state keys in
 * an open-addressing table of two Uint32 words per slot (hash compaction, as
 * TLC does). 8 bytes per slot at a load factor between 3/8 and 3/4: 11 to
 * 22 bytes per stored state (linear probing stays short below 3/4). Two distinct states share a fingerprint with
 * probability about n^2 / 2^65 for n states (under 3e-6 at ten million); the
 * explorer reports that figure rather than hiding it.
 */

/** Two independent 32-bit hashes of a string (FNV-1a and a multiply-rotate hash). */
export function fingerprint(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // Final avalanche so that nearby keys spread over the table.
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b ^= b >>> 16;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  return [a >>> 0, b >>> 0];
}

/** The slot of a table of `mask + 1` slots where a fingerprint's linear probe starts (every fingerprint table places it so). */
export function probeHome(hi: number, lo: number, mask: number): number {
  return (hi ^ Math.imul(lo, 0x9e3779b1)) & mask;
}

/** A growable set of 64-bit fingerprints. */
export class FingerprintSet {
  private table: Uint32Array;
  private mask: number;
  size = 0;
  /** Where {@link prefetch} leaves what it read (a read whose value went nowhere could be dropped). */
  touched = 0;

  constructor(capacityLog2 = 16) {
    this.table = new Uint32Array(2 << capacityLog2);
    this.mask = (1 << capacityLog2) - 1;
  }

  /** Bytes the table occupies. */
  get bytes(): number {
    return this.table.byteLength;
  }

  /** Bytes the table would allocate if the next fingerprint added is new (it doubles then), else 0. */
  get growthBytes(): number {
    return (this.size + 1) * 4 > (this.mask + 1) * 3 ? 2 * this.table.byteLength : 0;
  }

  /** Reads the slot where a fingerprint's probe starts, so that a later {@link add} finds it in the cache. */
  prefetch(hi: number, lo: number): void {
    this.touched ^= this.table[2 * this.home(hi, lo)];
  }

  /** Whether a fingerprint is in the set (without adding it). */
  has(hi: number, lo: number): boolean {
    if (hi === 0 && lo === 0) lo = 1;
    const t = this.table;
    for (let i = this.home(hi, lo); ; i = (i + 1) & this.mask) {
      const h = t[2 * i];
      const l = t[2 * i + 1];
      if (h === 0 && l === 0) return false;
      if (h === hi && l === lo) return true;
    }
  }

  /** Adds a fingerprint; true when it was new. The pair (0, 0) is stored as (0, 1). */
  add(hi: number, lo: number): boolean {
    if (hi === 0 && lo === 0) lo = 1;
    if ((this.size + 1) * 4 > (this.mask + 1) * 3) this.grow();
    const t = this.table;
    let i = this.home(hi, lo);
    for (;;) {
      const h = t[2 * i];
      const l = t[2 * i + 1];
      if (h === 0 && l === 0) {
        t[2 * i] = hi;
        t[2 * i + 1] = lo;
        this.size++;
        return true;
      }
      if (h === hi && l === lo) return false;
      i = (i + 1) & this.mask;
    }
  }

  /** The slot where a fingerprint's probe starts. */
  private home(hi: number, lo: number): number {
    return probeHome(hi, lo, this.mask);
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    this.size = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 || old[i + 1] !== 0) this.add(old[i], old[i + 1]);
  }
}
