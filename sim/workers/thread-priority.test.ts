import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BOUNDS_DEFAULT } from '../check.ts';
import { checkThreadPool } from './pool.ts';
import { lowerWorkerThreadPriority } from './thread-priority.ts';
import { threadNice, WORKER_THREAD_NICE, type ThreadPriority } from './thread-nice.ts';

/** The nice value a worker thread started with `workerData` has after loading `thread-task.ts` (through tsx, as check-worker.mjs loads it). */
function niceInThread(workerData: ThreadPriority | undefined): Promise<number> {
  const taskModule = fileURLToPath(new URL('./thread-task.ts', import.meta.url));
  const code = `
    const { parentPort } = require('node:worker_threads');
    import('tsx/esm/api')
      .then(({ register }) => { register(); return import(${JSON.stringify(taskModule)}); })
      .then(() => parentPort.postMessage(require('node:os').getPriority()));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData });
    worker.once('message', (nice: number) => {
      void worker.terminate();
      resolve(nice);
    });
    worker.once('error', reject);
  });
}

/** The nice values of this process's threads (Linux: field 19 of each thread's stat, after the command name). */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]));
}

/** The nice values of this process's threads while a check pool made with `nice` holds a thread that has run a seed. */
async function poolNices(nice: number): Promise<number[]> {
  const plan = { rules: 'fail-closed', oldRules: null, broker: null, bounds: BOUNDS_DEFAULT };
  const pool = await checkThreadPool(1, plan, nice);
  try {
    await pool.run({ plan, from: 1, to: 2 });
    return threadNices();
  } finally {
    await pool.destroy();
  }
}

describe('worker thread priority', () => {
  it('leaves the main thread as it is', () => {
    const before = getPriority();
    expect(lowerWorkerThreadPriority(WORKER_THREAD_NICE)).toBe(false);
    expect(getPriority()).toBe(before);
  });

  it('is the lowest only when the first answer is all that is waited for (--stop-on-first)', () => {
    expect(threadNice(true)).toBe(19);
    expect(threadNice(false)).toBe(0);
  });

  it.runIf(process.platform === 'linux')('lowers a check worker thread to the nice value its pool asks for, from the moment it loads its task, and only that thread', async () => {
    const before = getPriority();
    expect(await niceInThread({ nice: threadNice(true) })).toBe(WORKER_THREAD_NICE);
    expect(getPriority()).toBe(before);
  });

  it.runIf(process.platform === 'linux')('leaves a check worker thread at normal priority when its pool asks for none (a nice-19 thread all but stops beside other processes)', async () => {
    expect(await niceInThread({ nice: threadNice(false) })).toBe(0);
    expect(await niceInThread(undefined)).toBe(0);
  });

  it.runIf(process.platform === 'linux')("a check pool's thread runs at the nice value the pool was made with", async () => {
    expect(await poolNices(WORKER_THREAD_NICE)).toContain(WORKER_THREAD_NICE);
    expect(await poolNices(0)).not.toContain(WORKER_THREAD_NICE);
  }, 60_000);
});
