/**
 * A hash map from pairs of non-negative 32-bit integers to non-negative
 * integers, in typed arrays: the packed explorer's front cache for memo
 * lookups keyed by two ids (a `Map` would need one number key per pair and
 * box it when the pair does not fit 31 bits).
 */
export class PairTable {
  /** Per slot: first, second, value + 1 (0 marks an empty slot). */
  private slots = new Int32Array(3 << 10);
  private mask = (1 << 10) - 1;
  size = 0;

  /** The value held for `(a, b)`, or -1. */
  get(a: number, b: number): number {
    const t = this.slots;
    for (let i = PairTable.hash(a, b) & this.mask; ; i = (i + 1) & this.mask) {
      const v = t[3 * i + 2];
      if (v === 0) return -1;
      if (t[3 * i] === a && t[3 * i + 1] === b) return v - 1;
    }
  }

  /** Sets the value of `(a, b)`, which must be absent. */
  set(a: number, b: number, value: number): void {
    if (value < 0) throw new Error('pair table: values are non-negative');
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    this.place(a, b, value + 1);
    this.size++;
  }

  private place(a: number, b: number, stored: number): void {
    const t = this.slots;
    let i = PairTable.hash(a, b) & this.mask;
    while (t[3 * i + 2] !== 0) i = (i + 1) & this.mask;
    t[3 * i] = a;
    t[3 * i + 1] = b;
    t[3 * i + 2] = stored;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let i = 0; i < old.length; i += 3) if (old[i + 2] !== 0) this.place(old[i], old[i + 1], old[i + 2]);
  }

  private static hash(a: number, b: number): number {
    const h = Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b);
    return h ^ (h >>> 15);
  }
}
