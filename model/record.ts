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
 * Classifies a slot as an engine that understands schemas up to `schemaKnown`
 * sees it. A legacy record (written before `attempts`, `resendEpoch` or
 * `digest` existed) is filled with neutral defaults and flagged `legacy`.
 */
export function readSlot(slot: RecordSlot | undefined, schemaKnown: number): RecordRead {
  if (slot === undefined) return { kind: 'absent' };
  if (slot.kind === 'torn') return { kind: 'corrupt' };
  const raw = slot.record as Partial<OutboxRecord>;
  const schema = typeof raw.schema === 'number' ? raw.schema : 0;
  if (schema > schemaKnown) return { kind: 'unknown-version', schema };
  if (typeof raw.status !== 'string' || typeof raw.payload !== 'string') return { kind: 'corrupt' };
  const legacy =
    typeof raw.attempts !== 'number' || typeof raw.resendEpoch !== 'number' || typeof raw.digest !== 'string';
  if (!legacy) return { kind: 'found', record: slot.record, legacy: false };
  const record: OutboxRecord = {
    ...slot.record,
    schema: schema === 0 ? SCHEMA_CURRENT : schema,
    attempts: typeof raw.attempts === 'number' ? raw.attempts : 0,
    resendEpoch: typeof raw.resendEpoch === 'number' ? raw.resendEpoch : 0,
    digest: typeof raw.digest === 'string' ? raw.digest : digestOf(raw.payload),
  };
  return { kind: 'found', record, legacy: true };
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
