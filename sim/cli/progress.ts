/**
 * Progress bars (cli-progress) on a terminal; nothing when output is piped,
 * so JSON and logs stay clean.
 */
import cliProgress from 'cli-progress';
import type { Io } from './io.ts';

/** A progress bar that may be invisible. */
export interface Progress {
  update(done: number, detail?: string): void;
  stop(): void;
}

/** A bar of `total` units labelled `what`, drawn on stderr only when it is a terminal. */
export function progressBar(io: Io, what: string, total: number): Progress {
  if (!io.tty) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { format: `${what} [{bar}] {percentage}% | {value}/{total} | {detail}`, stream: process.stderr, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { detail: '' });
  let last = 0;
  return {
    update(done, detail = '') {
      // Redraw at most every 1% to keep the bar cheap.
      if (done - last >= Math.max(1, total / 100) || done === total) {
        last = done;
        bar.update(done, { detail });
      }
    },
    stop: () => bar.stop(),
  };
}
