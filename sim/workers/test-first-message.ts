/**
 * Test helper: runs `code` in a worker thread of its own (`eval`, with
 * `execArgv` when given) and resolves with the first message it posts, then
 * ends the thread (thread-pool.test.ts, thread-priority.test.ts).
 */
import { Worker } from 'node:worker_threads';

export function firstMessage<T>(code: string, execArgv?: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, ...(execArgv !== undefined ? { execArgv } : {}) });
    worker.once('message', (m: T) => {
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
}
