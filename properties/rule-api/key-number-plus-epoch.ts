/**
 * fail-closed with a compact deduplication key, as a team does when an SQS
 * FIFO deduplication id must stay under 128 characters: the id's prefix
 * and its trailing number plus the resend epoch, added up as one sequence
 * (`order-17` at epoch 0 is `order-:17`, at epoch 1 `order-:18`). An id
 * without a trailing number keeps `<id>#<epoch>`.
 *
 * Mistake: `order-17` requeued once and `order-18` in its first cycle share
 * a key. A broker deduping by key stores whichever comes first and answers
 * the other "ok" as a duplicate: that task is reported delivered and the
 * broker holds nothing for it (no-phantom-delivery). Only two ids in
 * different cycles meet it; the id probe compares keys across resend
 * epochs too (docs/protocol.md, 'Id shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const keyNumberPlusEpoch: RuleSet = extendRules(failClosed, {
  name: 'key-number-plus-epoch',
  summary: "fail-closed, but the key is the id's prefix and its trailing number plus the resend epoch.",
  envelope(id, record) {
    const envelope = failClosed.envelope(id, record);
    const m = /^(.*?)(\d+)$/.exec(id);
    return m === null ? envelope : { ...envelope, key: `${m[1]}:${Number(m[2]) + record.resendEpoch}` };
  },
});

export default keyNumberPlusEpoch;
