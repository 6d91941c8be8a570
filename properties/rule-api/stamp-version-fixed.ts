/**
 * `stamp-version.ts` with the mistake it had (while the engine POSTed a
 * PARKED pre-send write) fixed another way: the first version to attempt a
 * body is stamped (`firstBy`, from `who.rules`) before the POST, and the
 * park happens in `complete`, after the attempt, so no POST is made while
 * the record says PARKED.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const stampVersionFixed: RuleSet = extendRules(failClosed, {
  name: 'stamp-version-fixed',
  summary: 'fail-closed, stamping the first version to attempt a body; parks in complete a body another version attempted first.',
  preSend(record, view) {
    const firstBy = typeof record.firstBy === 'string' ? record.firstBy : view?.who.rules;
    return { ...(failClosed.preSend(record, view) ?? record), ...(firstBy === undefined ? {} : { firstBy }) };
  },
  complete(record, outcome, limits, view) {
    // The view passed on: fail-closed reads in it what the stored record says of earlier attempts.
    const written = failClosed.complete(record, outcome, limits, view);
    const other = view !== undefined && typeof record.firstBy === 'string' && record.firstBy !== view.who.rules;
    if (!other) return written;
    return written.map((r) => (r.status === 'READY' ? { ...r, status: 'PARKED', reason: 'outcome-unknown' } : r));
  },
});

export default stampVersionFixed;
