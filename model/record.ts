/**
 * Reading and building durable records. Reading is where corruption, schema
 * skew and legacy records show up, so the read result names which it was
 * (reports count each kind on its own, and a corrupt record is not an absent one).
 */
import { checkFields, declaredFields, defaultOf, digestOf, SCHEMA_DEFAULT, type RecordSchema } from './schema.ts';
import type { OutboxRecord, RecordRead, RecordSlot, StoredFields } from './types.ts';

/** The record schema version the catalog rule sets write. */
export const SCHEMA_CURRENT = 1;

export { digestOf } from './schema.ts';

/**
 * Whether a record's payload is readable but not the body its stored digest
 * names: a column that truncated, a charset conversion, a migration that
 * rewrote it (the fault `alter-payload`), or a rule set that rewrote it
 * itself. fail-closed never sends such a payload, and the world publishes no
 * body of its own for it (docs/faults.md, 'Storage and process faults'). A read fills in a
 * missing or ill-typed digest from the payload, so only a digest stored
 * beside another payload says so.
 */
export function payloadAltered(record: OutboxRecord): boolean {
  return payloadAgainstDigest(record) === 'altered';
}

/** Whether a record's payload is the body its stored digest names (both stored as strings): one the fault may still alter. */
export function payloadIntact(record: OutboxRecord): boolean {
  return payloadAgainstDigest(record) === 'intact';
}

/** Whether a record's stored digest names `body` (the body it stands for, whatever its payload reads now). */
export function digestNames(record: OutboxRecord, body: string): boolean {
  return typeof record.digest === 'string' && record.digest === digestOf(body);
}

/** A record's payload against its stored digest; `unknown` when either is missing or not a string. */
function payloadAgainstDigest(record: OutboxRecord): 'intact' | 'altered' | 'unknown' {
  if (typeof record.payload !== 'string' || typeof record.digest !== 'string') return 'unknown';
  return digestOf(record.payload) === record.digest ? 'intact' : 'altered';
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

/** Base fields whose absence (or another type) marks a legacy record: written before they existed. */
const LEGACY_MARKS = ['attempts', 'resendEpoch', 'digest'];

/** A found record as a schema reads it: the defaults filled in, and what was missing or ill-typed. */
interface FieldRead {
  record: OutboxRecord;
  legacy: boolean;
  stored: StoredFields;
}

/**
 * The last reads, by stored record and schema (records are immutable): an
 * engine reads a record at each step of its attempt, so the record read
 * last is mostly the one read again. A few entries looked up by identity,
 * not a WeakMap: most records are read a few times, and a WeakMap entry per
 * record written cost more (a twenty-fifth of a seeded run) than reading its
 * fields again.
 */
const RECENT = 8;
const recentStored: (OutboxRecord | null)[] = new Array<OutboxRecord | null>(RECENT).fill(null);
const recentSchema: (RecordSchema | null)[] = new Array<RecordSchema | null>(RECENT).fill(null);
const recentRead: (FieldRead | null)[] = new Array<FieldRead | null>(RECENT).fill(null);
let recentNext = 0;

function readFields(stored: OutboxRecord, schema: RecordSchema): FieldRead {
  for (let i = 0; i < RECENT; i++) {
    if (recentStored[i] === stored && recentSchema[i] === schema) return recentRead[i] as FieldRead;
  }
  const { missing, illTyped } = checkFields(stored, schema);
  const legacy = LEGACY_MARKS.some((f) => missing.includes(f) || illTyped.includes(f));
  let record = stored;
  if (missing.length > 0 || illTyped.length > 0) {
    const filled: Record<string, unknown> = { ...stored };
    for (const [name, decl] of declaredFields(schema)) {
      if (missing.includes(name) || illTyped.includes(name)) filled[name] = defaultOf(decl, stored);
    }
    // A record written before schemas were numbered reads as the first one.
    if (legacy && (typeof stored.schema !== 'number' || stored.schema === 0)) filled.schema = SCHEMA_CURRENT;
    record = filled as OutboxRecord;
  }
  const read: FieldRead = { record, legacy, stored: { raw: stored, missing, illTyped } };
  recentStored[recentNext] = stored;
  recentSchema[recentNext] = schema;
  recentRead[recentNext] = read;
  recentNext = (recentNext + 1) % RECENT;
  return read;
}

/**
 * Classifies a slot as an engine that understands schemas up to `schemaKnown`
 * and records of `shape` and `schema` sees it. A found record comes twice:
 * `record`, with each declared field that is missing or of another type
 * replaced by its declared default, and `stored`: the record as stored and
 * the names of those fields (absent is not zero: a rule decides whether to
 * trust the defaults, docs/rules.md 'Record schema'). `legacy` says a base
 * field (attempts, resendEpoch, digest) was among them: a record written
 * before they existed. A record with no payload is corrupt unless `shape`
 * allows it: then it is found, flagged `metadataOnly`, and left without one.
 */
export function readSlot(
  slot: RecordSlot | undefined,
  schemaKnown: number,
  shape: RecordShape = SHAPE_DEFAULT,
  schema: RecordSchema = SCHEMA_DEFAULT,
): RecordRead {
  if (slot === undefined) return { kind: 'absent' };
  if (slot.kind === 'torn') return { kind: 'corrupt' };
  const raw = slot.record as Partial<OutboxRecord>;
  const version = typeof raw.schema === 'number' ? raw.schema : 0;
  if (version > schemaKnown) return { kind: 'unknown-version', schema: version };
  if (typeof raw.status !== 'string') return { kind: 'corrupt' };
  const metadataOnly = raw.payload === undefined && shape.payload === 'optional';
  if (typeof raw.payload !== 'string' && !metadataOnly) return { kind: 'corrupt' };
  const { record, legacy, stored } = readFields(slot.record, schema);
  return metadataOnly ? { kind: 'found', record, legacy, stored, metadataOnly: true } : { kind: 'found', record, legacy, stored };
}

/** The read of a record as it is, with nothing missing (a record built by hand, for a test or a path). */
export function foundRead(record: OutboxRecord): RecordRead & { kind: 'found' } {
  return { kind: 'found', record, legacy: false, stored: { raw: record, missing: [], illTyped: [] } };
}

/**
 * A fresh READY record of `schema` for a body: `freshRecord` with every
 * field the schema declares beyond the base set to its default, written
 * out, so that a record of that schema found without one has lost it
 * (absent is not the default).
 */
export function freshRecordOf(schema: RecordSchema, body: string, resendEpoch: number): OutboxRecord {
  const record: Record<string, unknown> = freshRecord(body, resendEpoch);
  for (const [name, decl] of declaredFields(schema)) if (record[name] === undefined) record[name] = defaultOf(decl, record);
  return record as OutboxRecord;
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
