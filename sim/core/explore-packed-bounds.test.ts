/**
 * explorePacked reads its bounds once, not per state: the bounds it is
 * given have several hidden classes (a caller's, a lasso's shortest path's
 * `{ statesMax }`), and per-state code reading them, optimised on one class,
 * was thrown away when the next search gave another. What the bounds ask
 * is still done: the state bound, progress, stop reasons and growth asks.
 */
import { describe, expect, it } from 'vitest';
import type { ExploreBounds } from './explore.ts';
import { explorePacked } from './explore-packed.ts';
import { chain } from './test-chain.ts';


/** `bounds` behind a proxy that counts the reads of each field. */
function counted(bounds: ExploreBounds): { bounds: ExploreBounds; reads: Map<string | symbol, number> } {
  const reads = new Map<string | symbol, number>();
  const proxy = new Proxy(bounds, {
    get(target, key, receiver) {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { bounds: proxy, reads };
}

describe('explorePacked’s bounds', () => {
  it('are each read once, however many states the search stores', () => {
    let progress = 0;
    let asked = 0;
    let growths = 0;
    const { bounds, reads } = counted({
      statesMax: 1_000_000,
      progressEvery: 100,
      onProgress: () => progress++,
      stopReason: () => {
        asked++;
        return null;
      },
      beforeGrowth: () => {
        growths++;
        return null;
      },
    });
    const r = explorePacked(chain(200_000), bounds);
    expect(r.complete).toBe(true);
    expect(r.states).toBe(200_000);
    // What the bounds ask is done: progress and stop reasons every 100 states, growth of the visited set asked.
    expect(progress).toBe(2_000);
    expect(asked).toBe(2_000);
    expect(growths).toBeGreaterThan(0);
    for (const [key, n] of reads) expect(n, `reads of ${String(key)}`).toBeLessThanOrEqual(2);
  });

  it('still stop the search at the state bound and at a stop reason', () => {
    const atMax = explorePacked(chain(10_000), counted({ statesMax: 500 }).bounds);
    expect(atMax.states).toBe(500);
    expect(atMax.stoppedBy).toBe('max-states');
    const stopped = explorePacked(chain(10_000), { statesMax: 1_000_000, stopEvery: 10, stopReason: () => 'interrupted' });
    expect(stopped.stoppedBy).toBe('interrupted');
    expect(stopped.states).toBe(10);
  });

  it('keeps a violated property checked once per search (no second report of it)', () => {
    const r = explorePacked(chain(100, 40), { statesMax: 1_000, stopAtFirst: false });
    expect(r.violations.map((v) => v.violation.detail)).toEqual(['state 40']);
    expect(r.complete).toBe(true);
  });
});
