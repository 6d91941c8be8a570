/**
 * Mistake: a claim is only ever taken when free; a claim left by a crashed
 * process is never reclaimed, so its id stays READY forever with no cause an
 * operator can see.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-never-reclaim-dead',
  summary: 'Only a free claim is taken; a dead owner\'s claim is never reclaimed.',
  mayClaim: (claim) => claim.kind === 'free',
});

export default mutant;
