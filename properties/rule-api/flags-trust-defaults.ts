/**
 * fail-closed as it was before it validated its evidence flags: its
 * decisions read `inFlight` and `unknownSeen` from the record with defaults
 * filled in, and never look at `stored` (docs/rules.md, 'Record schema').
 * A flag stored missing or of another type reads as its default, false: an
 * attempt whose outcome was unknown is forgotten, and a later refusal parks
 * `permanent-refusal` over a body the broker holds (honest-park), under
 * field-corrupt or legacy-record (which drops the flags, introduced after
 * the legacy schema).
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const flagsTrustDefaults: RuleSet = extendRules(failClosed, {
  name: 'flags-trust-defaults',
  summary: 'fail-closed, but inFlight and unknownSeen are read with their defaults filled in, never checked against the stored record.',
  // Called without the stored record: fail-closed then trusts the values as read (who, the time and the limits passed on).
  preSend: (record, view) => failClosed.preSend(record, view === undefined ? undefined : { who: view.who, now: view.now, ...(view.limits === undefined ? {} : { limits: view.limits }) }),
  complete: (record, outcome, limits) => failClosed.complete(record, outcome, limits),
  requeue: (record, resetAttempts) => failClosed.requeue(record, resetAttempts),
});

export default flagsTrustDefaults;
