import { getPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { lowerWorkerThreadPriority, WORKER_THREAD_NICE } from './thread-priority.ts';

/** The nice value a worker thread has after loading `thread-task.ts` (through tsx, as check-worker.mjs loads it). */
function niceInThread(): Promise<number> {
  const taskModule = fileURLToPath(new URL('./thread-task.ts', import.meta.url));
  const code = `
    const { parentPort } = require('node:worker_threads');
    import('tsx/esm/api')
      .then(({ register }) => { register(); return import(${JSON.stringify(taskModule)}); })
      .then(() => parentPort.postMessage(require('node:os').getPriority()));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true });
    worker.once('message', (nice: number) => {
      void worker.terminate();
      resolve(nice);
    });
    worker.once('error', reject);
  });
}

describe('worker thread priority', () => {
  it('leaves the main thread as it is', () => {
    const before = getPriority();
    expect(lowerWorkerThreadPriority()).toBe(false);
    expect(getPriority()).toBe(before);
  });

  it.runIf(process.platform === 'linux')('lowers a check worker thread, from the moment it loads its task, and only that thread', async () => {
    const before = getPriority();
    expect(await niceInThread()).toBe(WORKER_THREAD_NICE);
    expect(getPriority()).toBe(before);
  });
});
