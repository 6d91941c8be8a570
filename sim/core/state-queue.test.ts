import { describe, expect, it } from 'vitest';
import { StateQueue } from './state-queue.ts';

describe('StateQueue', () => {
  it('returns vectors in the order pushed, across chunk boundaries and reused chunks, and frees read chunks but one', () => {
    const q = new StateQueue(3);
    const out = new Int32Array(3);
    let read = 0;
    for (let i = 0; i < 40_000; i++) {
      q.push(Int32Array.of(i, -i, i * 7));
      if (i % 3 === 0) {
        q.shift(out);
        expect([...out]).toEqual([read, 0 - read || 0, read * 7]);
        read++;
      }
    }
    while (q.length > 0) {
      q.shift(out);
      expect(out[0]).toBe(read++);
    }
    expect(read).toBe(40_000);
    // One read chunk is kept to be written again (3 wide words a state, 2^14 states a chunk).
    expect(q.bytes).toBe(2 ** 14 * 3 * 4);
    expect(() => q.shift(out)).toThrow(/empty/);
  });

  it('keeps 16-bit words while values fit, and widens without losing what it holds', () => {
    const q = new StateQueue(2);
    const out = new Int32Array(2);
    q.push(Int32Array.of(1, 65535));
    expect(q.isWide).toBe(false);
    q.push(Int32Array.of(2, 70000));
    q.push(Int32Array.of(3, -5));
    expect(q.isWide).toBe(true);
    const got: number[][] = [];
    while (q.length > 0) {
      q.shift(out);
      got.push([...out]);
    }
    expect(got).toEqual([[1, 65535], [2, 70000], [3, -5]]);
  });
});
