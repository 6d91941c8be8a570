/**
 * fail-closed: a park is final for every body; a later, different body for a
 * parked or delivered id is quarantined with a named cause and never sent; a
 * record that cannot be read (corrupt, or of a newer schema) is not an absent
 * record, so its file is quarantined too; the gateway archives a file only
 * when the body the outbox confirmed sending is that file's body, of the
 * generation it read.
 */
import { freshRecord, SCHEMA_CURRENT } from '../record.ts';
import type { Admission, DisposeView, Disposal, RuleSet } from '../rules.ts';
import type { OutboxRecord, Outcome, Reply } from '../types.ts';
import { match } from 'ts-pattern';

function admit({ body, read }: { body: string; read: import('../types.ts').RecordRead }): Admission {
  // Exhaustive: a new kind of read, or a new record status, is a type error here until it is decided.
  return match(read)
    .returnType<Admission>()
    .with({ kind: 'absent' }, () => ({ kind: 'write', record: freshRecord(body, 0) }))
    .with({ kind: 'corrupt' }, () => ({ kind: 'quarantine', cause: 'corrupt-record' }))
    .with({ kind: 'unknown-version' }, (r) => ({ kind: 'quarantine', cause: `unknown-schema-v${r.schema}` }))
    // Drain the record's current cycle; a different body waits until it ends.
    .with({ kind: 'found', record: { status: 'READY' } }, () => ({ kind: 'keep' }))
    .with({ kind: 'found', record: { status: 'DELIVERED' } }, (r) => (r.record.payload === body ? { kind: 'keep' } : { kind: 'quarantine', cause: 'delivered-id-new-body' }))
    .with({ kind: 'found', record: { status: 'PARKED' } }, (r) =>
      r.record.payload === body ? { kind: 'quarantine', cause: `parked-${r.record.reason ?? 'unknown'}` } : { kind: 'quarantine', cause: 'parked-id-new-body' },
    )
    .exhaustive();
}

/** Every reply the broker gives has its outcome: a new reply is a type error here until it is classified. */
function classify(reply: Reply): Outcome {
  return match(reply)
    .returnType<Outcome>()
    .with('ok', () => 'confirmed')
    .with('refused-400', 'conflict-409', () => 'definite')
    .with('unavailable-503', () => 'transient')
    .with('timeout', () => 'indeterminate')
    .with('garbled-200', () => 'unclassified')
    .exhaustive();
}

function complete(record: OutboxRecord, outcome: Outcome, limits: { attemptsMax: number }): OutboxRecord[] {
  const base = { ...record, inFlight: false };
  // Exhaustive: a new outcome is a type error here until it is decided.
  return match(outcome)
    .returnType<OutboxRecord[]>()
    .with('confirmed', () => [{ ...base, status: 'DELIVERED' }])
    // A refusal proves this POST was not stored, not that no earlier one was: after
    // an attempt whose outcome is unknown (a lost reply, or a POST cut by a crash)
    // the broker may hold the body (and id-409 answers that copy's duplicate with
    // 409), so the park says outcome-unknown rather than claim non-delivery
    // (honest-park, docs/properties.md).
    .with('definite', () => [{ ...base, status: 'PARKED', reason: record.unknownSeen === true ? 'outcome-unknown' : 'permanent-refusal' }])
    // transient, indeterminate and unclassified all count as an attempt; an
    // unclassified reply may have been stored, so it is treated as indeterminate.
    .with('transient', 'indeterminate', 'unclassified', (o) => {
      const unknownSeen = record.unknownSeen === true || o !== 'transient';
      const attempts = record.attempts + 1;
      if (attempts >= limits.attemptsMax) {
        return [{ ...base, attempts, unknownSeen, status: 'PARKED', reason: unknownSeen ? 'outcome-unknown' : 'max-attempts' }];
      }
      return [{ ...base, attempts, unknownSeen }];
    })
    .exhaustive();
}

function dispose({ file, live, read, sent, outcome }: DisposeView): Disposal {
  const sameGeneration = live !== null && live.generation === file.generation;
  if (!sameGeneration) return { kind: 'leave' };
  const record = read.kind === 'found' ? read.record : null;
  const confirmedNow = outcome === 'confirmed' && sent !== null && sent.body === file.body;
  const deliveredBefore = sent === null && record !== null && record.status === 'DELIVERED' && record.payload === file.body;
  if (confirmedNow || deliveredBefore) return { kind: 'archive', file };
  if (record !== null && record.status === 'PARKED' && record.payload === file.body) {
    return { kind: 'quarantine', file, cause: `parked-${record.reason ?? 'unknown'}` };
  }
  return { kind: 'leave' };
}

const failClosed: RuleSet = {
  name: 'fail-closed',
  summary:
    'A park is final; a new body for a parked or delivered id, or a corrupt or newer-schema record, is quarantined; archive only the confirmed body of the generation read.',
  schemaKnown: SCHEMA_CURRENT,
  admit,
  mayClaim: (claim) => claim.kind === 'free' || (claim.kind === 'held' && !claim.ownerAlive),
  // `inFlight` marks a POST about to be made. Found already set, it says an
  // earlier engine got this far and stopped (a crash just before or during
  // its POST): that POST may have stored the body, so the outcome is unknown
  // from here on (honest-park: a later refusal must not park as a
  // non-delivery).
  preSend: (record) => (record.inFlight === true ? { ...record, inFlight: true, unknownSeen: true } : { ...record, inFlight: true }),
  envelope: (id, record) => ({ id, body: record.payload, key: `${id}#${record.resendEpoch}` }),
  classify,
  complete,
  requeue: (record, resetAttempts) => {
    const { reason: _reason, ...rest } = record;
    // unknownSeen survives: a requeue does not undo an earlier attempt that may
    // have stored the body, so a later refusal must not park as a non-delivery.
    return { ...rest, status: 'READY', resendEpoch: record.resendEpoch + 1, attempts: resetAttempts ? 0 : record.attempts };
  },
  dispose,
};

export default failClosed;
