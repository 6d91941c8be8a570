/**
 * The visited set of a search that records steps (`steady-graph.ts`): the
 * fingerprints of `fingerprint.ts`, each with its number (the count of
 * fingerprints added before it: the explorer's state number), so that an
 * edge to a state met again names it. The number sits beside the
 * fingerprint in one slot of three words: the probe that finds the
 * fingerprint has its number in the same cache line (a table of numbers
 * apart cost a second memory access per successor). 12 bytes a slot.
 */
import * as fingerprints from './fingerprint.ts';

// A module-local copy: a module loader may turn each access to an imported binding into a getter call (see explore-packed.ts).
const probeHome = fingerprints.probeHome;

const WORDS = 3;

export class NumberedFingerprintSet {
  private table: Uint32Array;
  private mask: number;
  size = 0;
  /** Where {@link prefetch} leaves what it read (a read whose value went nowhere could be dropped). */
  touched = 0;
  /** The number of the fingerprint the last {@link add} added or found. */
  last = -1;

  constructor(capacityLog2 = 16) {
    this.table = new Uint32Array(WORDS << capacityLog2);
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
    this.touched ^= this.table[WORDS * this.home(hi, lo)];
  }

  /** Whether a fingerprint is in the set (without adding it). */
  has(hi: number, lo: number): boolean {
    return this.idOf(hi, lo) >= 0;
  }

  /** The number of a fingerprint in the set, or -1. */
  idOf(hi: number, lo: number): number {
    if (hi === 0 && lo === 0) lo = 1;
    const t = this.table;
    for (let i = this.home(hi, lo); ; i = (i + 1) & this.mask) {
      const h = t[WORDS * i];
      const l = t[WORDS * i + 1];
      if (h === 0 && l === 0) return -1;
      if (h === hi && l === lo) return t[WORDS * i + 2];
    }
  }

  /** Adds a fingerprint, numbered {@link size}; true when it was new. Either way {@link last} is its number. The pair (0, 0) is stored as (0, 1). */
  add(hi: number, lo: number): boolean {
    if (hi === 0 && lo === 0) lo = 1;
    if ((this.size + 1) * 4 > (this.mask + 1) * 3) this.grow();
    const t = this.table;
    for (let i = this.home(hi, lo); ; i = (i + 1) & this.mask) {
      const k = WORDS * i;
      const h = t[k];
      const l = t[k + 1];
      if (h === 0 && l === 0) {
        t[k] = hi;
        t[k + 1] = lo;
        t[k + 2] = this.last = this.size++;
        return true;
      }
      if (h === hi && l === lo) {
        this.last = t[k + 2];
        return false;
      }
    }
  }

  /** The slot where a fingerprint's probe starts (as `FingerprintSet` places it). */
  private home(hi: number, lo: number): number {
    return probeHome(hi, lo, this.mask);
  }

  /** Doubles the table; numbers move with their fingerprints. */
  private grow(): void {
    const old = this.table;
    const t = (this.table = new Uint32Array(old.length * 2));
    this.mask = this.mask * 2 + 1;
    for (let k = 0; k < old.length; k += WORDS) {
      const hi = old[k];
      const lo = old[k + 1];
      if (hi === 0 && lo === 0) continue;
      let i = this.home(hi, lo);
      while (t[WORDS * i] !== 0 || t[WORDS * i + 1] !== 0) i = (i + 1) & this.mask;
      t[WORDS * i] = hi;
      t[WORDS * i + 1] = lo;
      t[WORDS * i + 2] = old[k + 2];
    }
  }
}
