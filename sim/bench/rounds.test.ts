/** Alternated rounds and the speed-up read from them. */
import { describe, expect, it } from 'vitest';
import { alternatedRounds, median, speedup, speedupCells } from './rounds.ts';

describe('alternated rounds', () => {
  it('switches which side runs first each round', async () => {
    const order: string[] = [];
    const r = await alternatedRounds(
      3,
      async () => (order.push('one'), 1),
      async () => (order.push('two'), 2),
    );
    expect(order).toEqual(['one', 'two', 'two', 'one', 'one', 'two']);
    expect(r).toEqual({ one: [1, 1, 1], two: [2, 2, 2] });
  });
  it('reads the speed-up best against best, per round and at the median', () => {
    const s = speedup([10, 8, 9], [5, 5, 6]);
    expect(s.best).toBeCloseTo(8 / 5);
    expect(s.rounds).toEqual([2, 1.6, 1.5]);
    expect(s.median).toBe(1.6);
    expect(speedupCells(s)).toBe('**1.60x** | 2.00x, 1.60x, 1.50x | 1.60x');
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
