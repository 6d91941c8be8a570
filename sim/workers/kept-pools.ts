/**
 * Thread pools kept from one check to the next while a caller asks for it
 * (`check --watch`, sim/cli/rerun-on-save.ts): a re-check then runs on threads
 * whose isolates have compiled the checker already, where a new pool's
 * threads would warm up again
 * (docs/performance.md, 'Watching a rule file').
 * Outside {@link withKeptPools} a job's pool is made for it and ended with
 * it, as always.
 *
 * A pool is lent to one job at a time and given back only by a job that
 * ended well, or that a save stopped as stale (its queue stopped, its threads
 * healthy): after a failure or a signal its threads are ended, so that
 * nothing a failed job left running carries into the next. A thread still
 * finishing a piece the main thread ran too (thread-pieces.ts) ends it at
 * its next look at the queue; the next job's task waits for it.
 */
import type { Piscina } from 'piscina';
import type { PlanSpec } from './check-task.ts';
import { checkThreadPool } from './thread-pool.ts';
import { checkWorkerFile } from './worker-bundle.ts';

/** Pools not lent out now, by their number of threads and the file their threads load; null: none are kept. */
let kept: Map<string, Piscina> | null = null;

/** A job's pool and what {@link endJobPool} needs to keep it. */
export interface JobPool {
  pool: Piscina;
  key: string;
}

/** A pool of `threads` threads for a job of `plan`: a kept one when there is one for the same threads and file. */
export async function jobPool(threads: number, plan: PlanSpec): Promise<JobPool> {
  // Outside a watch nothing is kept, and the worker file is not looked for twice.
  if (kept === null) return { pool: await checkThreadPool(threads, plan), key: '' };
  const key = `${threads} ${await checkWorkerFile(plan)}`;
  const pool = kept?.get(key);
  if (pool !== undefined) {
    kept?.delete(key);
    return { pool, key };
  }
  return { pool: await checkThreadPool(threads, plan), key };
}

/** The end of a job's use of its pool: kept for the next job when pools are kept and the job ended well, else its threads ended. */
export function endJobPool(lent: JobPool, endedWell: boolean): Promise<void> {
  if (kept !== null && endedWell && !kept.has(lent.key)) {
    kept.set(lent.key, lent.pool);
    return Promise.resolve();
  }
  return lent.pool.destroy();
}

/** Runs `body` with pools kept between its checks; their threads are ended when it ends, however it ends. */
export async function withKeptPools<T>(body: () => Promise<T>): Promise<T> {
  if (kept !== null) return body();
  kept = new Map();
  try {
    return await body();
  } finally {
    const pools = [...kept.values()];
    kept = null;
    await Promise.all(pools.map((p) => p.destroy()));
  }
}

/** How many pools are kept now, not lent out (tests). */
export function keptPoolCount(): number {
  return kept?.size ?? 0;
}
