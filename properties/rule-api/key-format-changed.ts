/**
 * Item "the envelope and keys" under version skew: fail-closed, but the
 * idempotency key is written `<id>:<epoch>` where fail-closed writes
 * `<id>#<epoch>` (docs/rules.md, 'Version skew').
 *
 * Alone it is as safe as fail-closed: every engine builds one key per id
 * and epoch. Deployed from fail-closed by a rolling deploy, an engine of one
 * version retries a POST the other version's engine sent (the broker stored
 * it, the reply was lost or the engine crashed in the POST) under another
 * key, and a broker that dedupes by key stores the body twice: the
 * upgrade's flaw, which a check of this rule set alone cannot see.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const keyFormatChanged: RuleSet = extendRules(failClosed, {
  name: 'key-format-changed',
  summary: 'The idempotency key is <id>:<resend_epoch> where fail-closed writes <id>#<resend_epoch>: safe alone, not beside fail-closed.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${id}:${record.resendEpoch}` }),
});

export default keyFormatChanged;
