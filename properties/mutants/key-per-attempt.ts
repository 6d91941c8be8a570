/**
 * Mistake: the idempotency key names the attempt (`id#epoch.attempts`), not
 * the cycle, so a retry after a lost reply carries a key the broker has not
 * seen, and a broker that dedupes by key stores the body a second time.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-key-per-attempt',
  summary: 'The idempotency key is id#resend_epoch.attempts: a new key at every retry.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${id}#${record.resendEpoch}.${record.attempts}` }),
});

export default mutant;
