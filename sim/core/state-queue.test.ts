import { describe, expect, it } from 'vitest';
import { StateQueue } from './state-queue.ts';

describe('StateQueue', () => {
  it('returns vectors in the order pushed, across chunk boundaries, and frees read chunks', () => {
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
    expect(q.bytes).toBe(0);
    expect(() => q.shift(out)).toThrow(/empty/);
  });
});
