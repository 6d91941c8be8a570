/**
 * A library call's guard against a rule decision that ends the process from
 * inside its call (`process.exit(0)` in a decision). Under the command line
 * a supervisor sees the thread end with the decision still in its watch
 * cell and says so with exit code 2 (watch-lines.ts, `endedLine`); a
 * program that called `check()` instead ended with the code the decision
 * gave, 0, and a CI script read that as a pass. During a call the calling
 * thread writes into a watch cell of its own, and an exit while a decision
 * (or a rule file's import) is under way ends the process with exit code 2
 * and the command line's one line on stderr. An exit from anything else
 * (the caller's own code) is left alone.
 */
import { attachWatch, detachWatch, newWatchBuffer, readWatch, WATCH_IDLE, watchBuffer } from '../watch.ts';
import { endedLine } from '../watch-lines.ts';

/** Runs `call` with the guard in place; the guard is removed when it settles. */
export async function exitGuarded<T>(call: () => Promise<T>): Promise<T> {
  // A caller that already writes into a cell (a command line's thread) keeps it.
  const own = watchBuffer() === null;
  if (own) attachWatch(newWatchBuffer());
  const cell = watchBuffer();
  const onExit = (code: number): void => {
    if (cell === null) return;
    const slots = readWatch(cell);
    if (!slots.some((s) => s.what !== WATCH_IDLE)) return;
    process.exitCode = 2;
    process.stderr.write(`outbox-sim: ${endedLine(slots, code)}\n`);
  };
  process.on('exit', onExit);
  try {
    return await call();
  } finally {
    process.off('exit', onExit);
    if (own) detachWatch();
  }
}
