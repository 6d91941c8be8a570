/**
 * fail-closed with a claim check for large bodies, as teams add when a
 * broker caps its messages: a body over 64 KiB goes to blob storage, and
 * its message is keyed by the blob's content hash (`blob-<digest>#<epoch>`),
 * so that the upload and the publish share one idempotency key. Smaller
 * bodies keep fail-closed's key.
 *
 * Mistake: the key no longer names the task. Two tasks that publish the
 * same large body (a default report, an identical export) share it, and a
 * broker that dedupes by key stores the first and answers the second "ok"
 * as a duplicate: it is reported delivered and the broker holds nothing for
 * it (no-phantom-delivery). Only two ids with one body past 64 KiB show it;
 * the body probe sees the envelope's key turn at 65,537 characters, and
 * the suite searches the world of two ids with the same body at that size
 * (docs/protocol.md, 'Body shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const LARGE = 64 * 1024;

const keyClaimCheckLarge: RuleSet = extendRules(failClosed, {
  name: 'key-claim-check-large',
  summary: 'fail-closed, but a body over 64 KiB is keyed by its content hash (a claim check): blob-<digest>#<epoch>.',
  envelope(id, record) {
    const envelope = failClosed.envelope(id, record);
    return Buffer.byteLength(envelope.body, 'utf8') > LARGE ? { ...envelope, key: `blob-${record.digest}#${record.resendEpoch}` } : envelope;
  },
});

export default keyClaimCheckLarge;
