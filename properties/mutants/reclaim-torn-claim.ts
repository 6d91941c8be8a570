/**
 * Mistake: a claim that cannot be read is taken as abandoned and reclaimed.
 * Its owner may be alive and mid-attempt.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-reclaim-torn-claim',
  summary: 'A torn (unreadable) claim is reclaimed as if its owner were dead.',
  mayClaim: (claim) => claim.kind === 'torn' || failClosed.mayClaim(claim),
});

export default mutant;
