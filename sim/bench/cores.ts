/**
 * Controls for the bench's 1-against-2-workers figure: whether this machine
 * gives two whole cores at all (an arithmetic loop that allocates nothing,
 * in one thread and then in two), and what a new `check` thread costs before
 * its first result (loading the TypeScript modules through tsx). With them
 * the ratio of `check` can be read: what it misses of 2x that the loop does
 * not is lost in `check`'s own work when two threads run it at once, or in
 * the new thread's start-up.
 */
import { Worker } from 'node:worker_threads';
import type { PlanSpec } from '../workers/check-task.ts';
import { checkThreadPool } from '../workers/pool.ts';

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

/** Seconds from starting a `check` worker thread to the result of its first task (one seed of `plan`). */
export async function checkThreadStartSeconds(plan: PlanSpec, now: () => number): Promise<number> {
  const t = now();
  const pool = checkThreadPool(1);
  try {
    await pool.run({ plan, from: 1, to: 2 });
    return now() - t;
  } finally {
    await pool.destroy();
  }
}
