/**
 * Controls for the bench's 1-against-2-workers figure: whether this machine
 * gives two whole cores at all (an arithmetic loop that allocates nothing,
 * in one thread and then in two), and what a new `check` thread costs before
 * it runs as fast as a warm one (loading its code, then a cold compiler).
 * With them the ratio of `check` can be read: what it misses of 2x that the
 * loop does not is lost in `check`'s own work when two threads run it at
 * once, or in the new thread's start-up and warm-up.
 */
import { Worker } from 'node:worker_threads';
import { processCpuSeconds } from './cpu-seconds.ts';
import { runTask, type PlanSpec } from '../workers/check-task.ts';
import { checkThreadPool } from '../workers/thread-pool.ts';

/** A fixed integer loop with no allocation: about 1 s on this machine. */
const ARITHMETIC = `
let x = 1;
for (let i = 0; i < 1.5e8; i++) x = (x * 31 + i) | 0;
require('node:worker_threads').parentPort.postMessage(x);
`;

/** Wall seconds until `n` threads, started together, have each run the arithmetic loop once. */
export function arithmeticThreadsSeconds(n: number, now: () => number): Promise<number> {
  const t = now();
  const runs = Array.from(
    { length: n },
    () =>
      new Promise<void>((done, fail) => {
        const w = new Worker(ARITHMETIC, { eval: true });
        w.once('message', () => void w.terminate().then(() => done(), fail));
        w.once('error', fail);
      }),
  );
  return Promise.all(runs).then(() => now() - t);
}

/** What a new `check` thread costs before it runs at the speed of a warm one. */
export interface ThreadStartCost {
  /** Wall seconds from starting the thread to the result of its first task (one seed). */
  firstResultSeconds: number;
  /** CPU seconds of the whole process while a new thread starts and then runs `seeds` seeds. */
  newThreadCpuSeconds: number;
  /** CPU seconds of the same seeds on the warm main thread. */
  warmCpuSeconds: number;
}

/** CPU seconds of the whole process (every thread) while `work` runs. */
export async function cpuSecondsOf(work: () => Promise<unknown>): Promise<number> {
  const before = processCpuSeconds();
  await work();
  return processCpuSeconds() - before;
}

/**
 * A new `check` thread's start-up and warm-up (its compiler starts cold), measured
 * as CPU time: seeds [2, 2 + seeds) on a new thread against the same seeds on the
 * main thread, which has run them before and is warm.
 */
export async function checkThreadStartCost(plan: PlanSpec, seeds: number, now: () => number): Promise<ThreadStartCost> {
  await runTask({ plan, from: 2, to: 2 + seeds });
  const warmCpuSeconds = await cpuSecondsOf(() => runTask({ plan, from: 2, to: 2 + seeds }));
  let firstResultSeconds = 0;
  const pool = await checkThreadPool(1, plan);
  try {
    const newThreadCpuSeconds = await cpuSecondsOf(async () => {
      const t = now();
      await pool.run({ plan, from: 1, to: 2 });
      firstResultSeconds = now() - t;
      await pool.run({ plan, from: 2, to: 2 + seeds });
    });
    return { firstResultSeconds, newThreadCpuSeconds, warmCpuSeconds };
  } finally {
    await pool.destroy();
  }
}
