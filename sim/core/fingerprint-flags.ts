/**
 * A few bits per state, keyed by the state's 64-bit fingerprint: what the
 * liveness search remembers of the states it has seen (quiet or not, which
 * steady environments' cycle search has finished with it). An open-addressing
 * table like {@link FingerprintSet}'s, with 32 flag bits beside each
 * fingerprint: 12 bytes a slot, 16 to 32 bytes a state. Nothing per state on
 * the JavaScript heap.
 */
export class FingerprintFlags {
  /**
   * Per slot, three words side by side: the fingerprint's two halves and its
   * flags. A lookup reads one place in memory (with the flags in an array
   * of their own, every lookup of a large table waited for two cache misses).
   */
  private slots: Uint32Array;
  private mask: number;
  size = 0;

  constructor(capacityLog2 = 12) {
    this.slots = new Uint32Array(3 << capacityLog2);
    this.mask = (1 << capacityLog2) - 1;
  }

  /** Bytes the table occupies. */
  get bytes(): number {
    return this.slots.byteLength;
  }

  /** Bytes the next growth would allocate when the next new fingerprint is stored, else 0. */
  get growthBytes(): number {
    return (this.size + 1) * 4 > (this.mask + 1) * 3 ? 2 * this.bytes : 0;
  }

  /** The flags of a fingerprint (0 when absent: an empty slot's flags are 0). */
  get(hi: number, lo: number): number {
    if (hi === 0 && lo === 0) lo = 1;
    return this.slots[this.find(hi, lo) + 2];
  }

  /** Sets bits of a fingerprint's flags (storing it when absent). */
  set(hi: number, lo: number, bits: number): void {
    if (hi === 0 && lo === 0) lo = 1;
    if (this.growthBytes > 0) this.grow();
    const i = this.find(hi, lo);
    const t = this.slots;
    if (t[i] === 0 && t[i + 1] === 0) {
      t[i] = hi;
      t[i + 1] = lo;
      this.size++;
    }
    t[i + 2] |= bits;
  }

  /** The offset of the slot holding the fingerprint, or of the empty slot where it would go. */
  private find(hi: number, lo: number): number {
    const t = this.slots;
    const mask = this.mask;
    for (let i = (hi ^ Math.imul(lo, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const h = t[3 * i];
      const l = t[3 * i + 1];
      if ((h === 0 && l === 0) || (h === hi && l === lo)) return 3 * i;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let i = 0; i < old.length; i += 3) {
      const hi = old[i];
      const lo = old[i + 1];
      if (hi === 0 && lo === 0) continue;
      const j = this.find(hi, lo);
      this.slots[j] = hi;
      this.slots[j + 1] = lo;
      this.slots[j + 2] = old[i + 2];
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
