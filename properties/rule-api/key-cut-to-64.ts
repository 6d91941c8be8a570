/**
 * fail-closed whose idempotency key is cut to 64 characters, as a team does
 * whose broker's deduplication id, or the column the outbox keeps keys in
 * (VARCHAR(64)), is that long (a blind review's).
 *
 * Mistake: two tasks whose composite ids share their first 64 characters
 * (`.../order-000017/line-000003/shipment-...-a`, `...-b`) get one key, and
 * a broker that dedupes by key (across ids) drops the second task's POST and
 * answers success: it is reported delivered and the broker holds nothing
 * for it (no-phantom-delivery). Ids `a`, `b` and ids named alike (32
 * characters) are never cut: only a world of the `prefix` id shape shows
 * it (docs/protocol.md, 'Id shapes'), which the id probe gives the default
 * check when the envelope makes the two one key.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const keyCutTo64: RuleSet = extendRules(failClosed, {
  name: 'key-cut-to-64',
  summary: 'fail-closed, but the idempotency key <id>#<resend_epoch> is cut to 64 characters.',
  envelope: (id, record) => {
    const envelope = failClosed.envelope(id, record);
    return { ...envelope, key: envelope.key.slice(0, 64) };
  },
});

export default keyCutTo64;
