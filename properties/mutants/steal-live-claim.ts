/**
 * Mistake: any claim this process does not hold is taken as stale (the
 * owner-liveness check is left out), so a live owner's claim is stolen.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-steal-live-claim',
  summary: 'A claim held by another process is reclaimed without checking that its owner is dead.',
  mayClaim: (claim) => claim.kind === 'free' || (claim.kind === 'held' && !claim.mine),
});

export default mutant;
