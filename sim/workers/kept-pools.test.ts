/**
 * Pools kept between the checks of a watch: lent to one job at a time, given
 * back only by a job that ended well, ended with the watch; outside a watch
 * every job's pool ends with it.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import { BOUNDS_DEFAULT } from '../check.ts';
import type { PlanSpec } from './check-task.ts';
import { endEarlyPool, endJobPool, jobPool, startPoolEarly, withKeptPools } from './kept-pools.ts';

const plan: PlanSpec = { rules: failClosed.name, oldRules: null, broker: null, bounds: BOUNDS_DEFAULT };

describe('kept pools', () => {
  it('within a watch, the next job gets the pool a job gave back; a failed job\'s pool is ended, not kept', async () => {
    await withKeptPools(async () => {
      const first = await jobPool(1, plan);
      await endJobPool(first, true);
      const second = await jobPool(1, plan);
      expect(second.pool).toBe(first.pool);
      // Lent out: a job beside it gets a pool of its own.
      const beside = await jobPool(1, plan);
      expect(beside.pool).not.toBe(first.pool);
      await endJobPool(beside, false);
      expect(beside.pool.threads).toHaveLength(0);
      await endJobPool(second, false);
      const third = await jobPool(1, plan);
      expect(third.pool).not.toBe(first.pool);
      await endJobPool(third, true);
    });
  });
  it('the watch ends the threads of the pools it kept; outside a watch a job\'s pool always ends with it', async () => {
    let keptPool: Awaited<ReturnType<typeof jobPool>>['pool'] | null = null;
    await withKeptPools(async () => {
      const lent = await jobPool(1, plan);
      keptPool = lent.pool;
      await endJobPool(lent, true);
      expect(lent.pool.threads.length).toBeGreaterThan(0);
    });
    expect((keptPool as unknown as { threads: unknown[] }).threads).toHaveLength(0);
    const alone = await jobPool(1, plan);
    await endJobPool(alone, true);
    expect(alone.pool.threads).toHaveLength(0);
  });
  it('a pool started early is the next job\'s when its threads and file are the job\'s; one no job took is ended', async () => {
    const started = startPoolEarly(1, plan);
    const taken = await jobPool(1, plan);
    // Taken: the job's pool is the one started early, nothing is left to end, and a second job gets another.
    expect(taken.pool).toBe(await started);
    await endEarlyPool();
    expect(taken.pool.threads.length).toBeGreaterThan(0);
    const next = await jobPool(1, plan);
    expect(next.pool).not.toBe(taken.pool);
    await Promise.all([endJobPool(taken, true), endJobPool(next, true)]);
    // Of other threads: not taken, a pool of the job's own; the early one is ended by endEarlyPool.
    const two = startPoolEarly(2, plan);
    const other = await jobPool(1, plan);
    expect(other.pool).not.toBe(await two);
    await endJobPool(other, true);
    await endEarlyPool();
    expect((await two)?.threads).toHaveLength(0);
    // Within a watch nothing starts early: the job gets a pool as it would.
    await withKeptPools(async () => {
      expect(startPoolEarly(1, plan)).toBeNull();
      const lent = await jobPool(1, plan);
      await endJobPool(lent, false);
    });
  });
});
