/**
 * Progress bars (cli-progress) on a terminal; nothing when output is piped,
 * so JSON and logs stay clean, nor under `--quiet` (the caller passes a
 * non-terminal Io then). With `NO_COLOR` set to any non-empty value
 * (https://no-color.org), or `TERM=dumb`, no escape sequence is written at
 * all: the bar becomes a plain line on stderr at every tenth of the way.
 */
import cliProgress from 'cli-progress';
import type { Io } from './io.ts';

/** A progress bar that may be invisible. */
export interface Progress {
  update(done: number, detail?: string): void;
  stop(): void;
}

/** Where a bar draws, and what the environment asks of it (tests give their own). */
export interface ProgressPlace {
  env?: NodeJS.ProcessEnv;
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

/** Whether the environment asks for output without escape sequences: NO_COLOR non-empty (no-color.org), or a dumb terminal. */
export function plainTerminal(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NO_COLOR ?? '') !== '' || env.TERM === 'dumb';
}

/** Plain lines, one per tenth done: no cursor movement, no escape sequence. */
function plainProgress(io: Io, what: string, total: number): Progress {
  let shown = 0;
  return {
    update(done, detail = '') {
      const tenth = Math.floor((10 * done) / Math.max(1, total));
      if (tenth <= shown) return;
      shown = tenth;
      io.err(`${what} ${Math.min(100, tenth * 10)}% | ${done}/${total}${detail === '' ? '' : ` | ${detail}`}`);
    },
    stop: () => undefined,
  };
}

/** A bar of `total` units labelled `what`, drawn on stderr only when it is a terminal. */
export function progressBar(io: Io, what: string, total: number, place: ProgressPlace = {}): Progress {
  if (!io.tty) return { update: () => undefined, stop: () => undefined };
  if (plainTerminal(place.env)) return plainProgress(io, what, total);
  const bar = new cliProgress.SingleBar(
    { format: `${what} [{bar}] {percentage}% | {value}/{total} | {detail}`, stream: place.stream ?? process.stderr, hideCursor: true, clearOnComplete: true },
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
