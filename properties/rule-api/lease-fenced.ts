/**
 * Item "time" (docs/rules.md, 'Time'): fail-closed, but a claim whose lease
 * has expired may be taken although its holder lives on (`mayClaim` reads
 * `claim.expired`), as lease-based relays do: a stalled relay must not hold
 * a message forever.
 *
 * Every write stays fenced (no `fences`: the default): the stale holder
 * checks its claim token before its next write or POST and abandons the
 * attempt, so the takeover is safe. `lease-unfenced.ts` drops the fence.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const leaseFenced: RuleSet = extendRules(failClosed, {
  name: 'lease-fenced',
  summary: 'fail-closed, but a claim whose lease expired is taken over although its holder lives on; every write checks the claim token first.',
  mayClaim: (claim) => claim.kind === 'free' || (claim.kind === 'held' && (!claim.ownerAlive || claim.expired === true)),
});

export default leaseFenced;
