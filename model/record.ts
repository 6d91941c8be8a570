/**
 * Reading and building durable records. Reading is where corruption, schema
 * skew and legacy records show up, so the read result names which it was
 * (reports count each kind on its own, and a corrupt record is not an absent one).
 */
import type { OutboxRecord, RecordRead, RecordSlot } from './types.ts';

/** The record schema version the catalog rule sets write. */
export const SCHEMA_CURRENT = 1;

/** Deterministic short digest of a body (FNV-1a, 32 bits, hex). */
export function digestOf(body: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h ^= body.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * The shape of the records a rule set writes and accepts, as it declares it
 * (`RuleSet.recordShape`). `payload: 'optional'` makes a record without a
 * payload (a metadata-only record, as some designs write once a body is
 * delivered or stored elsewhere) a legal record; by default it is corrupt.
 */
export interface RecordShape {
  payload: 'required' | 'optional';
}

/** The shape of a rule set that declares none. */
export const SHAPE_DEFAULT: RecordShape = { payload: 'required' };

/**
 * Classifies a slot as an engine that understands schemas up to `schemaKnown`
 * and records of `shape` sees it. A legacy record (written before `attempts`,
 * `resendEpoch` or `digest` existed) is filled with neutral defaults and
 * flagged `legacy`. A record with no payload is corrupt unless `shape`
 * allows it: then it is found, flagged `metadataOnly`, and left without one.
 */
export function readSlot(slot: RecordSlot | undefined, schemaKnown: number, shape: RecordShape = SHAPE_DEFAULT): RecordRead {
  if (slot === undefined) return { kind: 'absent' };
  if (slot.kind === 'torn') return { kind: 'corrupt' };
  const raw = slot.record as Partial<OutboxRecord>;
  const schema = typeof raw.schema === 'number' ? raw.schema : 0;
  if (schema > schemaKnown) return { kind: 'unknown-version', schema };
  if (typeof raw.status !== 'string') return { kind: 'corrupt' };
  const metadataOnly = raw.payload === undefined && shape.payload === 'optional';
  if (typeof raw.payload !== 'string' && !metadataOnly) return { kind: 'corrupt' };
  const flag = metadataOnly ? ({ metadataOnly: true } as const) : {};
  const legacy =
    typeof raw.attempts !== 'number' || typeof raw.resendEpoch !== 'number' || typeof raw.digest !== 'string';
  if (!legacy) return { kind: 'found', record: slot.record, legacy: false, ...flag };
  const record: OutboxRecord = {
    ...slot.record,
    schema: schema === 0 ? SCHEMA_CURRENT : schema,
    attempts: typeof raw.attempts === 'number' ? raw.attempts : 0,
    resendEpoch: typeof raw.resendEpoch === 'number' ? raw.resendEpoch : 0,
    // A metadata-only record has no body to digest.
    digest: typeof raw.digest === 'string' ? raw.digest : typeof raw.payload === 'string' ? digestOf(raw.payload) : '',
  };
  return { kind: 'found', record, legacy: true, ...flag };
}

/** A fresh READY record for a body, built from nothing. */
export function freshRecord(body: string, resendEpoch: number): OutboxRecord {
  return { schema: SCHEMA_CURRENT, status: 'READY', payload: body, digest: digestOf(body), attempts: 0, resendEpoch };
}

const metadataSizes = new WeakMap<OutboxRecord, number>();

/** Size of a record's metadata (everything but the payload), in bytes of JSON; memoised per (immutable) record. */
export function metadataBytes(record: OutboxRecord): number {
  let n = metadataSizes.get(record);
  if (n === undefined) {
    const { payload: _payload, ...meta } = record;
    n = JSON.stringify(meta).length;
    metadataSizes.set(record, n);
  }
  return n;
}
