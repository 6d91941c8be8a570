/**
 * fail-closed: a park is final for every body; a later, different body for a
 * parked or delivered id is quarantined with a named cause and never sent; a
 * record that cannot be read (corrupt, or of a newer schema) is not an absent
 * record, so its file is quarantined too; the gateway archives a file only
 * when the body the outbox confirmed sending is that file's body, of the
 * generation it read.
 */
import { digestNames, freshRecordOf, payloadAltered, SCHEMA_CURRENT } from '../record.ts';
import { byRecordAlone, type Admission, type DecisionView, type DisposeView, type Disposal, type RuleSet } from '../rules.ts';
import type { RecordSchema } from '../schema.ts';
import type { OutboxRecord, Outcome, RecordRead, Reply, StoredFields } from '../types.ts';
import { match } from 'ts-pattern';

/** Whether a record holds `body`: its payload, or, for a damaged payload, the body its digest names. */
function holdsBody(record: OutboxRecord, body: string): boolean {
  return record.payload === body || (payloadAltered(record) && digestNames(record, body));
}

/** A decision's rule for one case of its input (the branch ts-pattern picked), applied to the input itself. */
type AdmitRule = (read: RecordRead, body: string) => Admission;

type Found = Extract<RecordRead, { kind: 'found' }>;

/** The record of a read a `found` pattern matched. */
const recordOf = (read: RecordRead): OutboxRecord => (read as Found).record;

/**
 * The branch `admit` takes for a read: ts-pattern's match, which picks it by
 * the read's kind, `metadataOnly` and record status only (see {@link caseKey}),
 * returns the rule of that branch, applied to the read and the body.
 */
function admitRule(read: RecordRead): AdmitRule {
  // Exhaustive: a new kind of read, or a new record status, is a type error here until it is decided.
  return (
    match(read)
      .returnType<AdmitRule>()
      // Both flags written from the start: a record of this rule set without them has lost them (`evidence`).
      .with({ kind: 'absent' }, () => (_r, body) => ({ kind: 'write', record: freshRecordOf(FAIL_CLOSED_SCHEMA, body, 0) }))
      .with({ kind: 'corrupt' }, () => () => ({ kind: 'quarantine', cause: 'corrupt-record' }))
      .with({ kind: 'unknown-version' }, () => (r) => ({ kind: 'quarantine', cause: `unknown-schema-v${(r as Extract<RecordRead, { kind: 'unknown-version' }>).schema}` }))
      // A tombstone the retention sweeper left of a DELIVERED record (no payload):
      // the broker holds what was delivered, so no body is sent for the id again.
      .with({ kind: 'found', metadataOnly: true }, () => (r) => ({ kind: 'quarantine', cause: recordOf(r).status === 'DELIVERED' ? 'delivered-id-retained' : 'corrupt-record' }))
      // Drain the record's current cycle (READY, or QUEUED: an engine that writes it is mid-cycle);
      // a different body waits until it ends.
      // A record whose payload is not the body its digest names is never sent (`selectable`): its file
      // is quarantined with that cause, as a corrupt record's is, and the record is left as it is.
      .with({ kind: 'found', record: { status: 'READY' } }, { kind: 'found', record: { status: 'QUEUED' } }, () => (r) => (payloadAltered(recordOf(r)) ? { kind: 'quarantine', cause: 'damaged-payload' } : { kind: 'keep' }))
      .with({ kind: 'found', record: { status: 'DELIVERED' } }, () => (r, body) => (holdsBody(recordOf(r), body) ? { kind: 'keep' } : { kind: 'quarantine', cause: 'delivered-id-new-body' }))
      .with({ kind: 'found', record: { status: 'PARKED' } }, () => (r, body) => {
        const record = recordOf(r);
        return holdsBody(record, body) ? { kind: 'quarantine', cause: `parked-${record.reason ?? 'unknown'}` } : { kind: 'quarantine', cause: 'parked-id-new-body' };
      })
      .exhaustive()
  );
}

/**
 * What {@link admitRule}'s patterns look at, as one key: the read's kind, and
 * of a found one whether it is metadata-only, else its status. Reads with one
 * key take one branch, so the match runs once per key, not at every scan (a
 * tenth of a seeded run was ts-pattern's walk of these patterns).
 */
function caseKey(read: RecordRead): string {
  if (read.kind !== 'found') return read.kind;
  return read.metadataOnly === true ? 'found/metadata-only' : `found/${String(read.record.status)}`;
}

/** Each case's rule, by {@link caseKey}: found by the match once, kept (the rules are pure). */
const admitRules = new Map<string, AdmitRule>();

function admit({ body, read }: { body: string; read: RecordRead }): Admission {
  const key = caseKey(read);
  let rule = admitRules.get(key);
  if (rule === undefined) {
    rule = admitRule(read);
    admitRules.set(key, rule);
  }
  return rule(read, body);
}

/** Every reply the broker gives has its outcome: a new reply is a type error here until it is classified. */
function classifyMatch(reply: Reply): Outcome {
  return match(reply)
    .returnType<Outcome>()
    .with('ok', () => 'confirmed')
    .with('refused-400', 'conflict-409', 'ok-false', () => 'definite')
    .with('unavailable-503', () => 'transient')
    .with('timeout', () => 'indeterminate')
    .with('garbled-200', () => 'unclassified')
    .exhaustive();
}

/** Each reply's outcome, matched once (the outcome is a function of the reply alone). */
const outcomes = new Map<Reply, Outcome>();

function classify(reply: Reply): Outcome {
  let outcome = outcomes.get(reply);
  if (outcome === undefined) {
    outcome = classifyMatch(reply);
    outcomes.set(reply, outcome);
  }
  return outcome;
}

/** The evidence flags fail-closed reads, as it trusts them. */
interface Evidence {
  inFlight: boolean;
  unknownSeen: boolean;
}

/**
 * The flags as stored, validated (docs/rules.md, 'Record schema'): absent is
 * not false. Every record this rule set writes holds both (its fresh record
 * writes them out; later writes carry them on), so a record without one, or
 * with one of another type, has lost evidence (a damaged field, a record of
 * the legacy schema, a rebuilt record): an attempt may have stored the body,
 * so both are taken as set (fail closed), never as the defaults the read
 * filled in.
 */
function evidence(record: OutboxRecord, stored: StoredFields | undefined): Evidence {
  const trusted = { inFlight: record.inFlight === true, unknownSeen: record.unknownSeen === true };
  if (stored === undefined) return trusted;
  const gone = (f: string) => stored.missing.includes(f);
  const bad = (f: string) => stored.illTyped.includes(f);
  const damaged = gone('inFlight') || gone('unknownSeen') || bad('inFlight') || bad('unknownSeen');
  return damaged ? { inFlight: true, unknownSeen: true } : trusted;
}

/**
 * fail-closed's pre-send write: `inFlight` set for the POST about to be made.
 * Found already set, an earlier send of this cycle never completed: the
 * outcome is unknown from here on and, given the attempts cap `cap`, that
 * send counts as an attempt; at the cap the record parks `outcome-unknown`
 * instead of being sent (docs/rules.md, 'The decisions'). Without a cap the
 * unfinished send is not counted (the write as it was before preSend could
 * park: rule files that keep it call this so).
 */
export function markInFlight(record: OutboxRecord, view: DecisionView | undefined, cap: number | undefined): OutboxRecord {
  const ev = evidence(record, view?.stored);
  const unknownSeen = ev.unknownSeen || ev.inFlight;
  if (!ev.inFlight || cap === undefined) return { ...record, inFlight: true, unknownSeen };
  const attempts = record.attempts + 1;
  if (attempts >= cap) return { ...record, inFlight: false, unknownSeen: true, attempts, status: 'PARKED', reason: 'outcome-unknown' };
  return { ...record, inFlight: true, unknownSeen, attempts };
}

/** What `complete` writes for one outcome, given the record, the record's flags cleared (`base`) and its evidence. */
type CompleteRule = (record: OutboxRecord, base: OutboxRecord, ev: Evidence, limits: { attemptsMax: number }, outcome: Outcome) => OutboxRecord[];

/** The branch `complete` takes for an outcome (ts-pattern's match picks it by the outcome alone). */
function completeRule(outcome: Outcome): CompleteRule {
  // Exhaustive: a new outcome is a type error here until it is decided.
  return (
    match(outcome)
      .returnType<CompleteRule>()
      .with('confirmed', () => (_record, base) => [{ ...base, status: 'DELIVERED' }])
      // A refusal proves this POST was not stored, not that no earlier one was: after
      // an attempt whose outcome is unknown (a lost reply, or a POST cut by a crash)
      // the broker may hold the body (and id-409 answers that copy's duplicate with
      // 409), so the park says outcome-unknown rather than claim non-delivery
      // (honest-park, docs/properties.md).
      .with('definite', () => (_record, base, ev) => [{ ...base, status: 'PARKED', reason: ev.unknownSeen ? 'outcome-unknown' : 'permanent-refusal' }])
      // transient, indeterminate and unclassified all count as an attempt; an
      // unclassified reply may have been stored, so it is treated as indeterminate.
      .with('transient', 'indeterminate', 'unclassified', () => (record, base, ev, limits, o) => {
        const unknownSeen = ev.unknownSeen || o !== 'transient';
        const attempts = record.attempts + 1;
        if (attempts >= limits.attemptsMax) {
          return [{ ...base, attempts, unknownSeen, status: 'PARKED', reason: unknownSeen ? 'outcome-unknown' : 'max-attempts' }];
        }
        return [{ ...base, attempts, unknownSeen }];
      })
      .exhaustive()
  );
}

/** Each outcome's rule, matched once (as `admitRules`). */
const completeRules = new Map<Outcome, CompleteRule>();

function complete(record: OutboxRecord, outcome: Outcome, limits: { attemptsMax: number }, view?: DecisionView): OutboxRecord[] {
  const ev = evidence(record, view?.stored);
  const base = { ...record, inFlight: false, unknownSeen: ev.unknownSeen };
  let rule = completeRules.get(outcome);
  if (rule === undefined) {
    rule = completeRule(outcome);
    completeRules.set(outcome, rule);
  }
  return rule(record, base, ev, limits, outcome);
}

function dispose({ file, live, read, sent, outcome }: DisposeView): Disposal {
  const sameGeneration = live !== null && live.generation === file.generation;
  if (!sameGeneration) return { kind: 'leave' };
  const record = read.kind === 'found' ? read.record : null;
  const confirmedNow = outcome === 'confirmed' && sent !== null && sent.body === file.body;
  const deliveredBefore = sent === null && record !== null && record.status === 'DELIVERED' && holdsBody(record, file.body);
  if (confirmedNow || deliveredBefore) return { kind: 'archive', file };
  if (record !== null && record.status === 'PARKED' && holdsBody(record, file.body)) {
    return { kind: 'quarantine', file, cause: `parked-${record.reason ?? 'unknown'}` };
  }
  return { kind: 'leave' };
}

/**
 * The fields fail-closed adds to the base ones (digest, attempts,
 * resendEpoch): the evidence that an attempt may have stored the body.
 */
export const FAIL_CLOSED_SCHEMA: RecordSchema = {
  version: SCHEMA_CURRENT,
  fields: {
    /** Set by the pre-send write, cleared by the completion: found set, an attempt stopped mid-POST. */
    inFlight: { type: 'boolean', since: 1, default: false },
    /** An attempt's outcome was unknown (it may have stored the body): a later refusal is no proof of non-delivery. */
    unknownSeen: { type: 'boolean', since: 1, default: false },
  },
};

const failClosed: RuleSet = {
  name: 'fail-closed',
  summary:
    'A park is final; a new body for a parked or delivered id, or a corrupt or newer-schema record, is quarantined; archive only the confirmed body of the generation read.',
  schemaKnown: SCHEMA_CURRENT,
  // Its only memory that an id was delivered is the DELIVERED record: a record
  // deleted by retention would let a later body or a replayed file through as
  // new (no-phantom-delivery, honest-park), so the sweeper leaves a tombstone.
  retention: 'tombstone',
  recordShape: { payload: 'optional' },
  recordSchema: FAIL_CLOSED_SCHEMA,
  admit,
  // A payload that is not the body its digest names (`payloadAltered`, model/record.ts) is not sent: the
  // record is not selected, so no engine claims it, and one that claimed it before the
  // damage releases it at its next step without a POST. It is not parked: an unselected
  // record is never asked in preSend (which may park now), so it stays as it is, its body
  // named by its digest (docs/rules.md, 'fail-closed').
  selectable: byRecordAlone((record) => !payloadAltered(record)),
  // A claim of its own is one its predecessor under the same identity took before it stopped
  // (a restart under stable identities, docs/faults.md): refused, no engine would ever take it
  // (its holder lives), and the record would wait for ever (settled-after-healing).
  mayClaim: (claim) => claim.kind === 'free' || (claim.kind === 'held' && (claim.mine || !claim.ownerAlive)),
  // `inFlight` marks a POST about to be made. Found already set, it says an
  // earlier engine got this far and stopped (a crash just before or during
  // its POST): that POST may have stored the body, so the outcome is unknown
  // from here on (honest-park: a later refusal must not park as a
  // non-delivery).
  // A flag it cannot trust counts as set (`evidence`).
  // Found set, that send never completed (no completion cleared the flag), so it counts as an
  // attempt here, where it is found: a body that kills the engine at its POST (a poison
  // message) completes no attempt, and would otherwise be sent for ever. Counted so, at the
  // attempts cap the record parks instead of being sent again.
  // docs/properties.md, 'quiet-after-healing (liveness bound)'
  // Its reason is outcome-unknown: the unfinished send may have stored the body (a crash after
  // the broker stored it looks the same), so the park claims nothing (honest-park). Only a send
  // cut short (a crash, or a holder whose claim was taken over) leaves the flag set, so only
  // those paths write a count here.
  preSend: (record, view) => markInFlight(record, view, view?.limits?.attemptsMax),
  envelope: (id, record) => ({ id, body: record.payload, key: `${id}#${record.resendEpoch}` }),
  classify,
  complete,
  requeue: (record, resetAttempts, view) => {
    // A damaged payload is not made READY again: it would not be sent (the record unchanged refuses the action).
    if (payloadAltered(record)) return record;
    const { reason: _reason, ...rest } = record;
    // unknownSeen survives: a requeue does not undo an earlier attempt that may
    // have stored the body, so a later refusal must not park as a non-delivery
    // (and evidence it cannot trust counts as set: `evidence`).
    const { unknownSeen } = evidence(record, view?.stored);
    return { ...rest, unknownSeen, status: 'READY', resendEpoch: record.resendEpoch + 1, attempts: resetAttempts ? 0 : record.attempts };
  },
  dispose,
};

export default failClosed;
