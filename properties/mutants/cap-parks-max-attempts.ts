/**
 * Mistake: at the attempts limit the record always parks `max-attempts`
 * ("we tried N times"), even when an attempt's outcome was unknown (a
 * timeout, a garbled reply, a POST cut by a crash) and the body may be
 * stored. The park then says "not delivered" for a body the broker holds
 * (honest-park); fail-closed parks `outcome-unknown` there.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-cap-parks-max-attempts',
  summary: 'At the attempts limit the record parks max-attempts even after an attempt whose outcome is unknown.',
  complete: (record, outcome, limits, view) =>
    failClosed
      .complete(record, outcome, limits, view)
      .map((r) => (r.status === 'PARKED' && r.reason === 'outcome-unknown' && outcome !== 'definite' ? { ...r, reason: 'max-attempts' } : r)),
});

export default mutant;
