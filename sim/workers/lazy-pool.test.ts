/**
 * A check on one worker runs on the main thread only: the pool module loads
 * piscina when it starts threads, not when it is imported, so start-up
 * (a catalog flaw's first answer) does not pay for it.
 */
import { describe, expect, it, vi } from 'vitest';
import { BOUNDS_DEFAULT } from '../check.ts';
import type { PlanSpec } from './check-task.ts';

const loaded = vi.hoisted(() => ({ piscina: 0 }));
vi.mock('piscina', async (importOriginal) => {
  loaded.piscina++;
  return await importOriginal();
});

const spec: PlanSpec = { rules: 'fail-closed', oldRules: null, broker: null, bounds: BOUNDS_DEFAULT };

describe('the check pool', () => {
  it('does not load piscina for one worker, and loads it for two', async () => {
    const { runSeedsParallel } = await import('./pool.ts');
    const one = await runSeedsParallel(spec, 1, 4, 1);
    expect(one.runs).toBe(3);
    expect(loaded.piscina).toBe(0);
    const two = await runSeedsParallel(spec, 1, 4, 2);
    expect(two.runs).toBe(3);
    expect(loaded.piscina).toBe(1);
    expect(two.exercised).toEqual(one.exercised);
  }, 60_000);
});
