/**
 * Item "time", back-off (docs/rules.md, 'Time'): fail-closed, but a record
 * whose attempt failed waits `BACKOFF` ticks before it is selected again:
 * `complete` stamps `retryAt` from the clock, `selectable` compares it with
 * `view.now`, as relays with a retry schedule do.
 *
 * Clean: once faults stop time runs on, so every back-off ends and the
 * record is retried until it is delivered or parked at the attempts cap.
 * In a world without a clock its time stands still and a back-off never
 * ends: those runs end `waiting`, judged in the worlds with a clock
 * (docs/rules.md, 'Time').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** Ticks a record waits after a failed attempt. */
export const BACKOFF = 2;

/** fail-closed with a back-off of `backoff` ticks after a failed attempt (also `retry-backoff-long.ts`). */
export function backoffRules(name: string, backoff: number): RuleSet {
  return extendRules(failClosed, {
    name,
    summary: `fail-closed, but a failed attempt is retried no sooner than ${backoff} ticks later.`,
    complete: (record, outcome, limits, view) =>
      failClosed.complete(record, outcome, limits, view).map((r) => (r.status === 'READY' ? { ...r, retryAt: (view?.now ?? 0) + backoff } : r)),
    // fail-closed's own selection first: a payload its digest does not name is never sent.
    selectable: (record, view) => (failClosed.selectable?.(record, view) ?? true) && (typeof record.retryAt !== 'number' || view.now >= record.retryAt),
  });
}

const retryBackoff: RuleSet = backoffRules('retry-backoff', BACKOFF);

export default retryBackoff;
