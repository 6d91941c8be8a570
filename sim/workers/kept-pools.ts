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

/** A pool started before its job ({@link startPoolEarly}): its threads, the file they load, the pool. */
interface EarlyPool {
  threads: number;
  file: Promise<string>;
  pool: Promise<Piscina>;
}

let early: EarlyPool | null = null;

/**
 * Starts the pool of a job about to run, before the job: its threads load the checker while the main thread
 * still prepares it (check-command.ts: the probe of the bodies a rule set reads, before the suite's worlds are
 * known), where they would start loading only when the job asks. The job's {@link jobPool} takes it when the
 * threads and the file they load are its own; {@link endEarlyPool} ends it if none did, and is to be called
 * however the command ends (an error before the job would leave its threads running, and the process with them).
 * Within a watch (pools kept), or while one started early is not taken, nothing is started (null); else the pool.
 */
export function startPoolEarly(threads: number, plan: PlanSpec): Promise<Piscina> | null {
  if (kept !== null || threads < 1 || early !== null) return null;
  const started: EarlyPool = { threads, file: checkWorkerFile(plan), pool: checkThreadPool(threads, plan) };
  // A pool that failed to start is the job's error when it takes it (or nobody's, when none does).
  started.file.catch(() => undefined);
  started.pool.catch(() => undefined);
  early = started;
  return started.pool;
}

/** Ends the pool {@link startPoolEarly} started when no job took it (its threads would keep the process alive). */
export async function endEarlyPool(): Promise<void> {
  const e = early;
  if (e === null) return;
  early = null;
  const pool = await e.pool.catch(() => null);
  await pool?.destroy();
}

/** The pool started early for `threads` threads loading `plan`'s worker file, taken; null when there is none. */
async function takeEarly(threads: number, plan: PlanSpec): Promise<Piscina | null> {
  const e = early;
  if (e === null || e.threads !== threads) return null;
  const [file, wanted] = await Promise.all([e.file, checkWorkerFile(plan)]);
  if (early !== e || file !== wanted) return null;
  early = null;
  return e.pool;
}

/** A pool of `threads` threads for a job of `plan`: one started early or a kept one, when there is one for the same threads and file. */
export async function jobPool(threads: number, plan: PlanSpec): Promise<JobPool> {
  // Outside a watch nothing is kept, and the worker file is not looked for twice.
  if (kept === null) return { pool: (await takeEarly(threads, plan)) ?? (await checkThreadPool(threads, plan)), key: '' };
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
