/**
 * Mistake: a garbled 200 is read as a success ("it was a 200") and classified
 * as confirmed, although the provider could not parse what the broker said.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-garbled-as-confirmed',
  summary: 'A garbled 200 is classified as confirmed.',
  classify: (reply) => (reply === 'garbled-200' ? 'confirmed' : failClosed.classify(reply)),
});

export default mutant;
