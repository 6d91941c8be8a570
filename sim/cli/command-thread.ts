/**
 * A supervised command's thread (see `supervisor.ts`): attaches the watch
 * and interrupt cells, tells the streams what the process's stderr is (a
 * terminal, and how wide), relays what it writes, runs the CLI and posts its
 * exit code. The reporting clock is given by the thread's entry
 * (bin/command-worker.mjs), as the process's is by bin/outbox-sim.mjs: the
 * CLI reads none.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { attachWatch } from '../watch.ts';
import { attachInterruptCell } from '../interrupt.ts';
import { ruleOutputToStderr } from '../rule-output.ts';
import { askBundlesOn } from '../rules-prebundle.ts';
import type { CommandThreadData, CommandThreadMessage } from './supervisor.ts';

/** Runs the supervised command of this worker thread; `now` is the wall clock, for reporting only. */
export async function runCommandThread(now: () => number): Promise<void> {
  const data = workerData as CommandThreadData;
  attachWatch(data.watch);
  attachInterruptCell(data.interrupt);
  if (data.bundles !== undefined) askBundlesOn(data.bundles);
  if (data.tty) {
    // Progress bars draw only on a terminal, and this thread's stderr is a pipe to the one that is.
    Object.assign(process.stderr, { isTTY: true, columns: data.columns });
  }
  const post = (m: CommandThreadMessage): void => parentPort?.postMessage(m);
  // Every write leaves at once as a message (see CommandThreadMessage): the command's lines, progress bars, a rule file's console.log.
  const relay = (stream: NodeJS.WriteStream, key: 'stdout' | 'stderr'): void => {
    stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
      post(key === 'stdout' ? { stdout: String(chunk instanceof Uint8Array ? Buffer.from(chunk) : chunk) } : { stderr: String(chunk instanceof Uint8Array ? Buffer.from(chunk) : chunk) });
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as typeof stream.write;
  };
  relay(process.stdout, 'stdout');
  relay(process.stderr, 'stderr');
  // A rule file's console output must not land in the report, nor in --json's document (rule-output.ts).
  ruleOutputToStderr();
  const { main } = await import('./main.ts');
  const { processIo } = await import('./io.ts');
  const code = await main(data.argv, { ...processIo, tty: data.tty, now });
  post({ code });
}
