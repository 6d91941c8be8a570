/**
 * Item "a record with no payload" (docs/rules.md, 'Record shape'): fail-closed,
 * but a delivered record keeps only its metadata (a tombstone: status,
 * digest, counters), as designs that keep the outbox small do. The rule set
 * declares it (`recordShape: { payload: 'optional' }`), so the tombstone
 * reads as `found` with `metadataOnly`, not as `corrupt`; it tells a
 * resubmitted body from a new one by the digest it kept.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { digestOf } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import type { OutboxRecord } from '../../model/types.ts';

/** The record without its payload. */
export function tombstone(record: OutboxRecord): OutboxRecord {
  const { payload: _payload, ...meta } = record;
  return meta as OutboxRecord;
}

const tombstoneDelivered: RuleSet = extendRules(failClosed, {
  name: 'tombstone-delivered',
  summary: 'fail-closed, but a delivered record keeps only its metadata; a body is matched to a tombstone by digest.',
  recordShape: { payload: 'optional' },
  // The view passed on: fail-closed reads in it what the stored record says of earlier attempts.
  complete: (record, outcome, limits, view) =>
    failClosed.complete(record, outcome, limits, view).map((r) => (r.status === 'DELIVERED' ? tombstone(r) : r)),
  admit(view) {
    const { read, body } = view;
    if (read.kind === 'found' && read.metadataOnly === true) {
      // Only a delivered record is ever a tombstone here: the same body is kept (then archived), another quarantined.
      return read.record.digest === digestOf(body) ? { kind: 'keep' } : { kind: 'quarantine', cause: 'delivered-id-new-body' };
    }
    return failClosed.admit(view);
  },
  dispose(view) {
    const { file, live, read, sent } = view;
    const tomb = read.kind === 'found' && read.metadataOnly === true ? read.record : null;
    if (tomb !== null && sent === null && live?.generation === file.generation && tomb.status === 'DELIVERED' && tomb.digest === digestOf(file.body)) {
      return { kind: 'archive', file };
    }
    return failClosed.dispose(view);
  },
});

export default tombstoneDelivered;
