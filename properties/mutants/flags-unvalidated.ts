/**
 * Mistake: the evidence flags (`inFlight`, `unknownSeen`) are read from the
 * record with defaults filled in, without checking that they were stored
 * (`stored.missing`, `stored.illTyped`): a flag lost to a damaged field or a
 * legacy record reads as false, and a later refusal parks
 * `permanent-refusal` over a body the broker holds (honest-park). Caught
 * only under field-corrupt and legacy-record acting on declared fields.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-flags-unvalidated',
  summary: 'inFlight and unknownSeen are trusted as read with defaults filled in, never checked against the stored record.',
  // Called without the stored record: fail-closed then trusts the values as read (who, the time and the limits passed on).
  preSend: (record, view) => failClosed.preSend(record, view === undefined ? undefined : { who: view.who, now: view.now, ...(view.limits === undefined ? {} : { limits: view.limits }) }),
  complete: (record, outcome, limits) => failClosed.complete(record, outcome, limits),
  requeue: (record, resetAttempts) => failClosed.requeue(record, resetAttempts),
});

export default mutant;
