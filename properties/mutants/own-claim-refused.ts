/**
 * Mistake: fail-closed's `mayClaim` before stable identities were in the
 * world: a claim is taken when free or when its holder is dead, and a claim
 * of the engine's own is refused. Where a restarted engine keeps its old
 * identity (`--stable-ids 1`: a relay with a fixed name), it finds the claim
 * its predecessor held as its own, alive; it refuses it, no other engine may
 * take a live holder's claim, and the id waits for ever.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-own-claim-refused',
  summary: 'A claim is taken when free or its holder is dead; a claim of its own (a predecessor under the same identity) is refused.',
  mayClaim: (claim) => claim.kind === 'free' || (claim.kind === 'held' && !claim.mine && !claim.ownerAlive),
});

export default mutant;
