/**
 * Mistake: every refusal parks as permanent-refusal, even after an earlier
 * attempt whose outcome is unknown (a lost reply, a POST cut by a crash). That
 * attempt may have stored the body, and a broker that answers duplicates with
 * 409 then refuses the retry: the park says "not delivered" for a body the
 * broker holds (honest-park).
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-refusal-after-unknown',
  summary: 'A refusal parks as permanent-refusal even when an earlier attempt may have stored the body.',
  complete: (record, outcome, limits, view) =>
    outcome === 'definite'
      ? [{ ...record, inFlight: false, status: 'PARKED', reason: 'permanent-refusal' }]
      : failClosed.complete(record, outcome, limits, view),
});

export default mutant;
