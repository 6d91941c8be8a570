/**
 * Item "the envelope and keys" (docs/rules.md): fail-closed, but the
 * idempotency key is built from the payload (`<body>#<epoch>`) instead of
 * the id, as a content hash would be.
 *
 * Mistake: two tasks with the same payload share the key, and a broker that
 * dedupes by key (across ids, docs/protocol.md 'Broker') drops the second
 * one's POST and answers success: it is reported delivered and the broker
 * holds nothing for it (no-phantom-delivery). Only a world where two ids
 * carry the same body shows it (`sameBodies`: the suite world "2 ids, the
 * same body, 1 engine, no crash, broker key", and one swarm seed in four of
 * two ids).
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'key-from-body',
  summary: 'The idempotency key is <payload>#<resend_epoch>: shared by two ids with the same body.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${record.payload}#${record.resendEpoch}` }),
});

export default mutant;
