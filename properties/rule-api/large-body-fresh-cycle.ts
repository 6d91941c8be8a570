/**
 * fail-closed with a claim-check path for large payloads, as a team adds one
 * in front of a broker that caps a message's size (SQS and SNS take 256 KiB):
 * a body of 256 KiB or more is uploaded on its own and its record written as
 * a fresh cycle, whatever the record says ("a large body is a new upload; the
 * record of the old one is stale").
 *
 * Mistake: a DELIVERED record's newer large body takes the cycle of the body
 * delivered (resend epoch 0, the same idempotency key), and a broker that
 * dedupes by id or by key answers its POST as a duplicate without storing
 * it: the record says DELIVERED for the new body while the broker holds the
 * old one (no-phantom-delivery). No body of one letter reaches the path: a
 * world of large bodies does (docs/protocol.md, 'Body shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { freshRecordOf } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { schemaOf } from '../../model/schema.ts';

/** The size from which a body takes the claim-check path, in bytes of UTF-8. */
export const CLAIM_CHECK_BYTES = 256 * 1024;

const utf8 = new TextEncoder();

const largeBodyFreshCycle: RuleSet = extendRules(failClosed, {
  name: 'large-body-fresh-cycle',
  summary: `fail-closed, but a body of ${CLAIM_CHECK_BYTES / 1024} KiB or more is written as a fresh cycle whatever its record says (a claim-check path).`,
  admit(view) {
    if (utf8.encode(view.body).length < CLAIM_CHECK_BYTES) return failClosed.admit(view);
    return { kind: 'write', record: freshRecordOf(schemaOf(failClosed), view.body, 0) };
  },
});

export default largeBodyFreshCycle;
