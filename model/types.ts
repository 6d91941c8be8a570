/**
 * Plain-data vocabulary of the outbox protocol (docs/protocol.md).
 * Everything here is JSON: it is hashed, recorded and replayed.
 */

/**
 * Record status as written by an engine. QUEUED is a status some engines
 * write between READY and the end of a cycle (an attempt under way, a
 * record handed on for sending): the delivery core drains it as it drains
 * READY, and what it means beyond that is the rule set's
 * (docs/rules.md, 'Record status').
 */
export const STATUSES = ['READY', 'QUEUED', 'DELIVERED', 'PARKED'] as const;
export type Status = (typeof STATUSES)[number];

/** Whether the delivery core drains a record of this status (READY or QUEUED): it is pending, not settled. */
export function isPending(status: unknown): boolean {
  return status === 'READY' || status === 'QUEUED';
}

/** Why a record was parked. */
export const PARK_REASONS = ['permanent-refusal', 'max-attempts', 'retry-window-exhausted', 'outcome-unknown'] as const;
export type ParkReason = (typeof PARK_REASONS)[number];

/**
 * A durable outbox record. Records are open objects: fields a rule set does not
 * know are kept when it rewrites the record (read, change, write back the whole
 * record) unless the rule rebuilds the record from nothing.
 */
export interface OutboxRecord {
  schema: number;
  status: Status;
  /**
   * The body. Absent only from a metadata-only record, which a rule set
   * that declares `recordShape: { payload: 'optional' }` may write, and then
   * reads as `found` with `metadataOnly: true` (docs/rules.md, 'Record shape').
   */
  payload: string;
  digest: string;
  attempts: number;
  resendEpoch: number;
  reason?: ParkReason;
  [extra: string]: unknown;
}

/** A record slot on disk: absent, an intact record, or bytes nobody can parse. */
export type RecordSlot = { kind: 'record'; record: OutboxRecord } | { kind: 'torn'; bytes: string };

/**
 * A found record as stored, beside the one with defaults filled in: absent
 * is not zero (docs/rules.md, 'Record schema').
 */
export interface StoredFields {
  /** The record exactly as stored. */
  raw: Readonly<Record<string, unknown>>;
  /** Declared fields the stored record lacks (their defaults are in `record`). */
  missing: readonly string[];
  /** Declared fields the stored record holds with another type (their defaults are in `record`). */
  illTyped: readonly string[];
}

/** How an engine read a record slot (reports count each kind: docs/properties.md, 'Layers the report counts'). */
export type RecordRead =
  | { kind: 'absent' }
  /**
   * `record`: with each declared field that was missing or ill-typed set to
   * its default; `stored`: the record as stored, and which fields those were;
   * `legacy`: a base field (attempts, resendEpoch, digest) was among them.
   * `metadataOnly`: the record has no payload, which its reader's rule set declared legal.
   */
  | { kind: 'found'; record: OutboxRecord; legacy: boolean; stored: StoredFields; metadataOnly?: true }
  | { kind: 'corrupt' }
  | { kind: 'unknown-version'; schema: number };

/**
 * A claim (lease) kept beside the record. The owner's process id is the
 * token: pids are never reused and a process holds one claim at a time, so
 * "the holder of the current token" is "the process named here".
 */
export type ClaimSlot =
  /** `until`: in a world with leases, the tick at which the lease expires (docs/rules.md, 'Time'). */
  | { kind: 'held'; owner: number; until?: number }
  | { kind: 'torn' };

/** What an engine sees of a claim when it wants to take it. */
export type ClaimView =
  | { kind: 'free' }
  /** `expired`: present in a world with leases only; true once the holder's lease has run out (it may live on). */
  | { kind: 'held'; mine: boolean; ownerAlive: boolean; expired?: boolean }
  | { kind: 'torn' };

/** The envelope a provider POSTs to the broker. */
export interface Envelope {
  id: string;
  body: string;
  key: string;
}

/** The reply the provider sees from one POST (`ok-false`: a 200 whose body says `ok: false`, the broker declined it). */
export type Reply = 'ok' | 'refused-400' | 'conflict-409' | 'ok-false' | 'unavailable-503' | 'timeout' | 'garbled-200';

/** The outcomes a rule set classifies a reply as. */
export const OUTCOMES = ['confirmed', 'definite', 'transient', 'indeterminate', 'unclassified'] as const;
/** A reply as the rule set classifies it. */
export type Outcome = (typeof OUTCOMES)[number];

/** How the broker treats a second POST for an id it already holds. */
export type BrokerMode = 'id-ok' | 'id-409' | 'key' | 'none' | 'log';

/** One generation of a result file. */
export interface ResultFile {
  id: string;
  body: string;
  generation: number;
}

/** A file in `undelivered/`: the cause and the operator's recovery command. */
export interface QuarantinedFile extends ResultFile {
  cause: string;
  recovery: string;
  /**
   * Not the store's: a note the world keeps for honest-park (docs/properties.md).
   * Set on a file quarantined with a cause that says its body was not
   * delivered while the broker held that body. Absent otherwise, so a world
   * that never meets such a quarantine has no state more than before.
   */
  contradicted?: true;
}

/** A durable effect an engine step asks the world to apply (effects as data). */
export type Effect =
  | { kind: 'write-record'; id: string; record: OutboxRecord }
  | { kind: 'take-claim'; id: string }
  | { kind: 'release-claim'; id: string }
  | { kind: 'post'; envelope: Envelope }
  | { kind: 'archive'; file: ResultFile }
  | { kind: 'quarantine'; file: ResultFile; cause: string };
