/**
 * Candidate mistake: a 503 taken as a definite refusal, parked at once.
 * Survives (equivalent under the properties): a 503 stores nothing
 * (docs/faults.md), so its park is a true non-delivery of this POST, and
 * after an attempt whose outcome was unknown `complete` still parks
 * `outcome-unknown`. Parks sooner than a team would want, but honestly.
 */
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import failClosed from '../../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-unavailable-as-definite',
  summary: 'A 503 is read as a definite refusal: parked at once.',
  classify: (reply) => (reply === 'unavailable-503' ? 'definite' : failClosed.classify(reply)),
});

export default mutant;
