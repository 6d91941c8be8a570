/**
 * Mistake: a claim whose lease expired is taken over although its holder
 * lives on, and no write checks the claim token (`fences` answers false):
 * the stalled holder resumes unaware and writes and POSTs beside the engine
 * that took its claim over. Only a world with leases (docs/rules.md, 'Time')
 * can show it: without one a live holder's claim is never taken.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-unfenced-lease',
  summary: 'An expired lease is taken over from a live holder, and no write or POST checks the claim token first.',
  mayClaim: (claim) => claim.kind === 'free' || (claim.kind === 'held' && (!claim.ownerAlive || claim.expired === true)),
  fences: () => false,
});

export default mutant;
