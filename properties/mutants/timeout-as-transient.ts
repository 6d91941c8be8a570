/**
 * Mistake: a timeout is retried like a 503 (classified `transient`), so no
 * attempt's outcome is ever taken as unknown. A timed-out POST may have
 * stored the body; at the attempts limit the record parks `max-attempts`,
 * "not delivered", for a body the broker holds (honest-park).
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-timeout-as-transient',
  summary: 'A timeout is classified as transient, like a 503: no outcome is ever unknown.',
  classify: (reply) => (reply === 'timeout' ? 'transient' : failClosed.classify(reply)),
});

export default mutant;
