/**
 * Mistake: an attempt whose reply raised (unclassified) is not counted, so a
 * broker that keeps garbling its replies is retried forever instead of
 * parking after the attempts limit.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-unclassified-not-counted',
  summary: 'An unclassified reply clears the in-flight flag but does not count the attempt (no park, retried forever).',
  complete(record, outcome, limits, view) {
    if (outcome === 'unclassified') return [{ ...record, inFlight: false }];
    return failClosed.complete(record, outcome, limits, view);
  },
});

export default mutant;
