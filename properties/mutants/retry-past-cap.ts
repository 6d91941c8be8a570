/**
 * Mistake: the attempts limit is never enforced for a transient failure.
 * At the limit the record goes back to READY with its count unchanged, so a
 * broker that stays unavailable is retried forever instead of the item
 * being parked for an operator.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-retry-past-cap',
  summary: 'A transient failure at the attempts limit leaves the record READY with its count unchanged (retried forever, never parked).',
  complete(record, outcome, limits, view) {
    const [next] = failClosed.complete(record, outcome, limits, view);
    return next.status === 'PARKED' && next.reason === 'max-attempts' ? [{ ...record, inFlight: false }] : [next];
  },
});

export default mutant;
