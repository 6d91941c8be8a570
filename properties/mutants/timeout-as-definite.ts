/**
 * Mistake: a timeout is classified as a definite refusal, so the item parks
 * `permanent-refusal` at once although the body may be stored.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-timeout-as-definite',
  summary: 'A timeout is classified as a definite refusal (parks permanent-refusal).',
  classify: (reply) => (reply === 'timeout' ? 'definite' : failClosed.classify(reply)),
});

export default mutant;
