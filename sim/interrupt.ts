/**
 * Ctrl-C and SIGTERM during a long command. A signal does not kill the run:
 * it is recorded here, the command's loops poll {@link interruption} between
 * units of work (a chunk of seeds, a slice of states), stop, print what they
 * have (a partial summary, the traces already written) and exit with
 * {@link interruptExitCode} (130 for SIGINT, 143 for SIGTERM, the shell's
 * convention). Nothing is half-written because every file is written to a
 * temporary name and renamed.
 *
 * The request lives in one of two places: a plain flag in this thread, or a
 * cell of a SharedArrayBuffer that a supervising thread writes. The second is
 * how a command running on a worker thread learns of a signal that only the
 * process's main thread receives, even while a synchronous search holds the
 * worker's event loop.
 *
 * Under `--watch` a run also stops when a watched file is saved with new
 * content: the run is of a version the user has already left
 * (`cli/rerun-on-save.ts`). That request is this thread's only, never a
 * signal: a Ctrl-C during it still ends the watch.
 */

/** The signals a run stops on. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** What stops a run: a signal, or a save that makes the run stale (`--watch`). */
export type StopCause = InterruptSignal | 'save';

const CODES: Record<InterruptSignal, number> = { SIGINT: 1, SIGTERM: 2 };
const SIGNALS: readonly (InterruptSignal | null)[] = [null, 'SIGINT', 'SIGTERM'];

let local: InterruptSignal | null = null;
let shared: Int32Array | null = null;
let stale = false;
let poll: (() => void) | null = null;

/**
 * The signal received so far, else 'save' when the run is stale, or null;
 * cheap enough to poll in a loop (a watch's poll, when one is set, looks at
 * its files only every so often: `cli/rerun-on-save.ts`).
 */
export function interruption(): StopCause | null {
  if (poll !== null) poll();
  if (local !== null) return local;
  const signal = shared === null ? null : (SIGNALS[Atomics.load(shared, 0)] ?? null);
  return signal ?? (stale ? 'save' : null);
}

/** The run under way is stale: a watched file was saved with new content. */
export function requestStale(): void {
  stale = true;
}

/** Forgets a stale run's request (the watch starts the next run), not a signal. */
export function clearStale(): void {
  stale = false;
}

/** Makes {@link interruption} call `p` first (a watch's look at its files during a run), or stops that (null). */
export function setInterruptPoll(p: (() => void) | null): void {
  poll = p;
}

/** Records a signal (the first one wins); a supervisor also writes it to the shared cell. */
export function requestInterrupt(signal: InterruptSignal): void {
  if (local === null) local = signal;
  if (shared !== null) Atomics.compareExchange(shared, 0, 0, CODES[signal]);
}

/** Reads (and writes) requests through `cell` (index 0 of an Int32Array over a SharedArrayBuffer). */
export function attachInterruptCell(cell: Int32Array): void {
  shared = cell;
}

/** A fresh cell to share with a worker thread. */
export function newInterruptCell(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** Forgets any request (tests, and a process that runs several commands). */
export function clearInterrupt(): void {
  local = null;
  stale = false;
  if (shared !== null) Atomics.store(shared, 0, 0);
}

/**
 * The exit code of a run stopped by `cause`: 128 + the signal's number. A
 * stale run's is SIGINT's; it is never the process's (the watch runs again).
 */
export function interruptExitCode(cause: StopCause): number {
  return cause === 'SIGTERM' ? 143 : 130;
}
