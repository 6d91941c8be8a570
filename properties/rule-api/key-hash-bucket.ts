/**
 * fail-closed whose idempotency key is a 12-bit bucket of the id's hash and
 * the resend epoch (`b0f3#0`), as a team does whose broker or key column
 * takes short keys (a blind review's).
 *
 * Mistake: ids meet in a bucket (with 4,096 of them, two of about 80 ids
 * already do), and a broker that dedupes by key (across ids) drops the
 * second task's POST and answers success: it is reported delivered and the
 * broker holds nothing for it (no-phantom-delivery). Two ids `a` and `b`
 * share a bucket once in 4,096 worlds: the id probe asks the envelope of
 * thousands of ids for such a pair, and the default check searches the
 * world of 2 ids named alike with it (docs/protocol.md, 'Id shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** A 12-bit FNV-1a hash of `id`, in hex. */
function bucketOf(id: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return (h & 0xfff).toString(16).padStart(3, '0');
}

const keyHashBucket: RuleSet = extendRules(failClosed, {
  name: 'key-hash-bucket',
  summary: 'fail-closed, but the idempotency key is a 12-bit bucket of the id and the resend epoch.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${bucketOf(id)}#${record.resendEpoch}` }),
});

export default keyHashBucket;
