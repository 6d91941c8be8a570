/**
 * A few bits per state, keyed by the state's 64-bit fingerprint: what the
 * liveness search remembers of the states it has seen (quiet or not, which
 * steady environments' cycle search has finished with it). An open-addressing
 * table like {@link FingerprintSet}'s, with 16 flag bits beside each
 * fingerprint: 10 bytes a slot, 13 to 27 bytes a state. Nothing per state on
 * the JavaScript heap.
 */
export class FingerprintFlags {
  private prints: Uint32Array;
  private flags: Uint16Array;
  private mask: number;
  size = 0;

  constructor(capacityLog2 = 12) {
    this.prints = new Uint32Array(2 << capacityLog2);
    this.flags = new Uint16Array(1 << capacityLog2);
    this.mask = (1 << capacityLog2) - 1;
  }

  /** Bytes the table occupies. */
  get bytes(): number {
    return this.prints.byteLength + this.flags.byteLength;
  }

  /** Bytes the next growth would allocate when the next new fingerprint is stored, else 0. */
  get growthBytes(): number {
    return (this.size + 1) * 4 > (this.mask + 1) * 3 ? 2 * this.bytes : 0;
  }

  /** The flags of a fingerprint (0 when absent). */
  get(hi: number, lo: number): number {
    if (hi === 0 && lo === 0) lo = 1;
    const i = this.find(hi, lo);
    return this.prints[2 * i] === 0 && this.prints[2 * i + 1] === 0 ? 0 : this.flags[i];
  }

  /** Sets bits of a fingerprint's flags (storing it when absent). */
  set(hi: number, lo: number, bits: number): void {
    if (hi === 0 && lo === 0) lo = 1;
    if (this.growthBytes > 0) this.grow();
    const i = this.find(hi, lo);
    if (this.prints[2 * i] === 0 && this.prints[2 * i + 1] === 0) {
      this.prints[2 * i] = hi;
      this.prints[2 * i + 1] = lo;
      this.size++;
    }
    this.flags[i] |= bits;
  }

  /** The slot holding the fingerprint, or the empty slot where it would go. */
  private find(hi: number, lo: number): number {
    const p = this.prints;
    for (let i = (hi ^ Math.imul(lo, 0x9e3779b1)) & this.mask; ; i = (i + 1) & this.mask) {
      const h = p[2 * i];
      const l = p[2 * i + 1];
      if ((h === 0 && l === 0) || (h === hi && l === lo)) return i;
    }
  }

  private grow(): void {
    const prints = this.prints;
    const flags = this.flags;
    this.prints = new Uint32Array(prints.length * 2);
    this.flags = new Uint16Array(flags.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let i = 0; i < flags.length; i++) {
      const hi = prints[2 * i];
      const lo = prints[2 * i + 1];
      if (hi === 0 && lo === 0) continue;
      const j = this.find(hi, lo);
      this.prints[2 * j] = hi;
      this.prints[2 * j + 1] = lo;
      this.flags[j] = flags[i];
    }
  }
}

/**
 * Dense indices (0, 1, 2, ... in insertion order) of 64-bit fingerprints:
 * the states of one cycle search, without a string or a map entry each.
 */
export class FingerprintIndex {
  private prints: Uint32Array;
  private values: Int32Array;
  private mask: number;
  size = 0;

  /** Most searches' regions are a few states: a small table to start with costs less to allocate and clear. */
  constructor(capacityLog2 = 10) {
    this.prints = new Uint32Array(2 << capacityLog2);
    this.values = new Int32Array(1 << capacityLog2);
    this.mask = (1 << capacityLog2) - 1;
  }

  /** The index of a fingerprint, or -1. */
  get(hi: number, lo: number): number {
    const i = this.find(hi, lo);
    return this.values[i] - 1;
  }

  /** Stores a fingerprint (which must be absent) under the next index, which it returns. */
  add(hi: number, lo: number): number {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const i = this.find(hi, lo);
    this.prints[2 * i] = hi;
    this.prints[2 * i + 1] = lo;
    this.values[i] = ++this.size;
    return this.size - 1;
  }

  private find(hi: number, lo: number): number {
    for (let i = (hi ^ Math.imul(lo, 0x9e3779b1)) & this.mask; ; i = (i + 1) & this.mask) {
      if (this.values[i] === 0 || (this.prints[2 * i] === hi && this.prints[2 * i + 1] === lo)) return i;
    }
  }

  private grow(): void {
    const prints = this.prints;
    const values = this.values;
    this.prints = new Uint32Array(prints.length * 2);
    this.values = new Int32Array(values.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let i = 0; i < values.length; i++) {
      if (values[i] === 0) continue;
      const j = this.find(prints[2 * i], prints[2 * i + 1]);
      this.prints[2 * j] = prints[2 * i];
      this.prints[2 * j + 1] = prints[2 * i + 1];
      this.values[j] = values[i];
    }
  }
}
