/**
 * Mistake: the idempotency key is the resend epoch alone (`epoch-<n>`), so
 * two ids share it, and a broker that dedupes by key (across ids, as real
 * ones do) drops the second id's POST and answers success.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-key-without-id',
  summary: 'The idempotency key is epoch-<resend_epoch>, without the id: shared by every id.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `epoch-${record.resendEpoch}` }),
});

export default mutant;
