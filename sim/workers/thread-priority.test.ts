import { getPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lowerWorkerThreadPriority, WORKER_THREAD_NICE } from './thread-priority.ts';
import { firstMessage } from './test-first-message.ts';

/** The nice value a worker thread has after loading `thread-task.ts` (through tsx, as check-worker.mjs loads it). */
function niceInThread(): Promise<number> {
  const taskModule = fileURLToPath(new URL('./thread-task.ts', import.meta.url));
  const code = `
    const { parentPort } = require('node:worker_threads');
    import('tsx/esm/api')
      .then(({ register }) => { register(); return import(${JSON.stringify(taskModule)}); })
      .then(() => parentPort.postMessage(require('node:os').getPriority()));`;
  return firstMessage<number>(code);
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
