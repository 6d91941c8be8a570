/**
 * The one-line reasons a supervised command gives when user code (a rule
 * file's decision or import) hung or ended its thread, read off the watch
 * cell's slots (watch.ts): the supervisor says them for the command's
 * thread (cli/supervisor.ts), a check job for its worker threads
 * (workers/check-job.ts).
 */
import { DECISIONS } from '../model/rules.ts';
import { POSITION_RUN, POSITION_SEARCH, WATCH_IDLE, WATCH_IMPORT, type WatchSlot } from './watch.ts';

/**
 * Where a slot's call was: the part of the command (a small world, the
 * probe before the run), and in it the seed and step of a run (step only
 * for a trace's replay, seed 0) or the depth of a search; a place not
 * known is said so, never guessed from what ran before.
 */
function whereOf(slot: WatchSlot): string {
  const at = slot.mode === POSITION_RUN ? (slot.a > 0 ? `seed ${slot.a}, step ${slot.b}` : `step ${slot.b} of a replayed trace`) : slot.mode === POSITION_SEARCH ? `search depth ${slot.a}` : null;
  if (slot.place !== null) return `; in ${slot.place}${at === null ? '' : `, at ${at}`}`;
  return at === null ? '; where in the command is not known' : `; at ${at}`;
}

/** The decision a slot's call is in, by name. */
function decisionOf(slot: WatchSlot): string {
  return DECISIONS[slot.what - 1] ?? `decision #${slot.what}`;
}

/** The one line for a call or import that did not return within the budget. */
export function hungLine(slot: WatchSlot, seconds: number): string {
  const budget = `within ${seconds} s (--decision-timeout)`;
  if (slot.what === WATCH_IMPORT) {
    return `rule file ${slot.label ?? '?'}: its import did not finish ${budget}: is there a loop at the top level of the file?`;
  }
  return `rule set ${slot.label ?? '?'}: ${decisionOf(slot)} did not return ${budget}${whereOf(slot)}`;
}

/**
 * The one line for a command thread that ended before it posted its exit
 * code, with no error of its own: a rule file's code ended it. A decision
 * that calls `process.exit` ends the thread on the spot (in a worker thread
 * it ends the thread, not the process), with its watch slot still showing
 * the call; an import that awaits something that never comes leaves the
 * thread nothing to run, and it ends with the slot showing the import. Either
 * way nothing was checked: before, the first said 0 (nothing violated)
 * and the second 1 (a violation), both with no summary.
 */
export function endedLine(slots: readonly WatchSlot[], exitCode: number): string {
  const busy = slots.find((s) => s.what !== WATCH_IDLE);
  if (busy?.what === WATCH_IMPORT) {
    return `rule file ${busy.label ?? '?'}: its import never finished: it waits at the top level on something that never comes (a top-level await of a promise nothing settles); let the file finish loading`;
  }
  if (busy !== undefined) {
    return `rule set ${busy.label ?? '?'}: ${decisionOf(busy)} ended the command from inside the call (process.exit?)${whereOf(busy)}: nothing was checked; a decision must return its answer`;
  }
  return `the command ended before its result (its thread exited with code ${exitCode}), as a rule file that calls process.exit ends it: nothing was checked; a rule file must not end the process`;
}
