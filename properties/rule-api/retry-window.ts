/**
 * Item "time", a retry window (docs/rules.md, 'Time'): fail-closed, but a
 * record also parks once its retry window is exhausted: the first attempt
 * stamps `firstTriedAt` (the clock, `view.now`), and a failed attempt
 * `RETRY_WINDOW` ticks or more after it parks the record
 * (`retry-window-exhausted`, or `outcome-unknown` when an earlier attempt
 * may have been stored), as relays that retry "for up to an hour" do.
 *
 * Clean: the window is checked where the attempt completes, so a record
 * past its window is parked, not left waiting. `retry-window-unparked.ts`
 * stops selecting it instead.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import type { OutboxRecord } from '../../model/types.ts';

/** Ticks after the first attempt during which a failed attempt is retried. */
export const RETRY_WINDOW = 2;

/** The record's first attempt, stamped by `preSend` (absent: not yet attempted). */
export function firstTriedAt(record: OutboxRecord): number | null {
  return typeof record.firstTriedAt === 'number' ? record.firstTriedAt : null;
}

const retryWindow: RuleSet = extendRules(failClosed, {
  name: 'retry-window',
  summary: `fail-closed, but a record parks once a failed attempt ends ${RETRY_WINDOW} ticks or more after its first attempt.`,
  preSend: (record, view) => {
    const written = failClosed.preSend(record, view) ?? record;
    return firstTriedAt(record) === null ? { ...written, firstTriedAt: view?.now ?? 0 } : written;
  },
  complete: (record, outcome, limits, view) =>
    failClosed.complete(record, outcome, limits, view).map((r) => {
      const first = firstTriedAt(r);
      const exhausted = r.status === 'READY' && first !== null && (view?.now ?? 0) - first >= RETRY_WINDOW;
      return exhausted ? { ...r, status: 'PARKED', reason: r.unknownSeen === true ? 'outcome-unknown' : 'retry-window-exhausted' } : r;
    }),
});

export default retryWindow;
