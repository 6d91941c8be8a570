/**
 * Running `check` seeds on worker threads (piscina: a well-kept pool with
 * task queueing and clean shutdown, rather than hand-rolled worker
 * bookkeeping). Seeds are cut into chunks so that faster threads take more;
 * results merge order-independently (counts add up, the first counterexample
 * per property is the lowest seed), so the report and its traces are the
 * same with any number of workers.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { emptyShard, mergeShards, type ShardResult } from '../check.ts';
import { runTask, type CheckTask, type PlanSpec } from './check-task.ts';

/** Seeds per task: small enough to balance, large enough to amortise messaging. */
const CHUNK_SEEDS = 250;

/** Cuts [from, to) into tasks. */
export function chunks(plan: PlanSpec, from: number, to: number, size = CHUNK_SEEDS): CheckTask[] {
  const tasks: CheckTask[] = [];
  for (let a = from; a < to; a += size) tasks.push({ plan, from: a, to: Math.min(to, a + size) });
  return tasks;
}

/** Runs seeds [from, to) on `workers` threads (in this thread when 1); reports seeds done. */
export async function runSeedsParallel(plan: PlanSpec, from: number, to: number, workers: number, onSeeds?: (done: number) => void): Promise<ShardResult> {
  const tasks = chunks(plan, from, to);
  let done = 0;
  const finish = (r: ShardResult): ShardResult => {
    done += r.runs;
    onSeeds?.(done);
    return r;
  };
  if (workers <= 1) {
    const results: ShardResult[] = [];
    for (const t of tasks) results.push(finish(await runTask(t)));
    return mergeShards(results);
  }
  const pool = new Piscina({
    filename: fileURLToPath(new URL('./check-worker.mjs', import.meta.url)),
    minThreads: workers,
    maxThreads: workers,
    maxQueue: tasks.length,
  });
  try {
    const results = await Promise.all(tasks.map(async (t) => finish((await pool.run(t)) as ShardResult)));
    return mergeShards([emptyShard(), ...results]);
  } finally {
    await pool.destroy();
  }
}
