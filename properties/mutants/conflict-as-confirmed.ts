/**
 * Mistake: a 409 conflict is read as "the broker already has it" and
 * classified as confirmed. A 409 is a definite refusal of this POST; it does
 * not say the broker holds anything for the id.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-conflict-as-confirmed',
  summary: 'A 409 conflict is classified as confirmed (a duplicate taken as delivered).',
  classify: (reply) => (reply === 'conflict-409' ? 'confirmed' : failClosed.classify(reply)),
});

export default mutant;
