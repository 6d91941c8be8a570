/**
 * A supervised command's thread (see `supervisor.ts`): attaches the watch
 * and interrupt cells, tells the streams what the process's stderr is (a
 * terminal, and how wide), runs the CLI and posts its exit code.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { attachWatch } from '../watch.ts';
import { attachInterruptCell } from './interrupt.ts';
import type { CommandThreadData, CommandThreadMessage } from './supervisor.ts';

const data = workerData as CommandThreadData;
attachWatch(data.watch);
attachInterruptCell(data.interrupt);
if (data.tty) {
  // Progress bars draw only on a terminal, and this thread's stderr is a pipe to the one that is.
  Object.assign(process.stderr, { isTTY: true, columns: data.columns });
}
const post = (m: CommandThreadMessage): void => parentPort?.postMessage(m);
const { main } = await import('./main.ts');
const now = () => Number(process.hrtime.bigint()) / 1e9;
const code = await main(data.argv, { out: (line) => post({ out: line }), err: (line) => post({ err: line }), tty: data.tty, now });
post({ code });
