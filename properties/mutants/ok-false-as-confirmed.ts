/**
 * Mistake: a 200 whose body says `ok: false` is read by its status code
 * ("it was a 200") and classified as confirmed, although the broker
 * declined the POST. (The broker's `refuse-ok-false` answer is offered only
 * where a rule set classifies `ok-false` apart from a 400: here it does.)
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-ok-false-as-confirmed',
  summary: 'A 200 whose body says ok:false is classified as confirmed.',
  classify: (reply) => (reply === 'ok-false' ? 'confirmed' : failClosed.classify(reply)),
});

export default mutant;
