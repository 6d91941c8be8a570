/**
 * Ctrl-C and SIGTERM while `check` runs in this process: the
 * signal is recorded as an interrupt request (../interrupt.ts) instead of
 * killing the process, so the command stops between units of work, writes
 * and prints what it has, and exits 130 or 143. The handlers live only as
 * long as the command: outside it a signal ends the process as usual.
 *
 * Only a command that gives the event loop a turn while it works may use
 * this (check does, between chunks of seeds): a handler runs on the event
 * loop, so around a synchronous loop it would only swallow the signal.
 * A worker thread never receives signals (Node delivers them to the main
 * thread), so there the handlers are not installed; a supervising main
 * thread relays them into the shared interrupt cell instead.
 */
import { isMainThread } from 'node:worker_threads';
import { requestInterrupt, type InterruptSignal } from '../interrupt.ts';

const SIGNALS: readonly InterruptSignal[] = ['SIGINT', 'SIGTERM'];

/** Runs `command` with SIGINT and SIGTERM turned into interrupt requests; the handlers are removed when it ends, however it ends. */
export async function withInterruptSignals<T>(command: () => Promise<T>): Promise<T> {
  if (!isMainThread) return command();
  const handlers = SIGNALS.map((signal) => [signal, () => requestInterrupt(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  try {
    return await command();
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  }
}
