/**
 * fail-closed whose idempotency key is lower-cased (a blind review's:
 * `${id}#${epoch}`.toLowerCase()), as a team does when its broker's key
 * index, or the MySQL column its outbox keeps keys in, compares case-blind.
 *
 * Mistake: two tasks whose ids differ only in case (`Order-17`,
 * `order-17`) get one key, and a broker that dedupes by key (across ids,
 * docs/protocol.md 'Broker') drops the second one's POST and answers
 * success: it is reported delivered and the broker holds nothing for it
 * (no-phantom-delivery). Ids `a`, `b` and ids named alike
 * (`eu-west-1.tenant-42.order-000017`) are lower case already: only a world
 * whose ids differ in case alone shows it (docs/protocol.md, 'Id shapes'):
 * the id probe marks `case` and the default check searches the world of 2
 * ids named alike again with such ids.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const keyLowercased: RuleSet = extendRules(failClosed, {
  name: 'key-lowercased',
  summary: 'fail-closed, but the idempotency key <id>#<resend_epoch> is lower-cased: ids that differ only in case share it.',
  envelope: (id, record) => {
    const envelope = failClosed.envelope(id, record);
    return { ...envelope, key: envelope.key.toLowerCase() };
  },
});

export default keyLowercased;
