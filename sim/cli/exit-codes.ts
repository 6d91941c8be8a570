/**
 * The exit code a command shares with others: a search cut by one of its
 * bounds with nothing found (explore, diff, compare). Not 0, which only a
 * whole search earns, and not 1, which means a violation or a difference.
 * (0, 1 and 2 are spelled where they are returned; 130/143 are the
 * interrupt's, see sim/interrupt.ts.)
 */
export const EXIT_PARTIAL = 3;

/**
 * The exit code of an internal error: a fault of outbox-sim's own (sysexits'
 * EX_SOFTWARE). Not 1, which a CI gate reads as a violation found: a
 * checker's crash (a blind review met one, a tombstone of a parked record
 * replaced) is no finding about the rule set, and no verdict.
 */
export const EXIT_INTERNAL = 70;

/** What an internal error ends a command with on stderr: one line that says whose fault it is and what to do, then the stack to report. */
export function internalErrorText(err: unknown): string {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const stack = err instanceof Error && err.stack !== undefined ? `\n${err.stack}` : '';
  return `outbox-sim: internal error, a fault of outbox-sim's own and no verdict on the rule set: ${message.split('\n')[0]}; please report it with the command line (and the rule file, if one was given)${stack}`;
}
