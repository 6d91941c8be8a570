/**
 * A rule set's record schema (docs/rules.md, 'Record schema'): the fields
 * its records carry beyond the structural ones (`schema`, `status`,
 * `payload`, `reason`), each with its type, the schema version that
 * introduced it and its value when absent; what its engines do with fields
 * they do not know when they rewrite a record; and the bounds its records
 * keep. Reading a record checks each declared field (absent is not zero),
 * the storage faults act on declared fields, and bounded-record checks the
 * bounds the rule set states.
 */

/** The JSON type of a declared field. */
export type FieldType = 'number' | 'string' | 'boolean' | 'array';

/** A record as stored: any JSON object, whatever it lacks or holds. */
export type StoredRecord = Readonly<Record<string, unknown>>;

/** The value of a field of type `T`. */
export interface FieldValues {
  number: number;
  string: string;
  boolean: boolean;
  array: readonly unknown[];
}

/** A field's value when absent (or ill-typed): a constant, or computed from the stored record (a digest from the payload). */
export type FieldDefault<T extends FieldType> = FieldValues[T] | ((stored: StoredRecord) => FieldValues[T]);

interface FieldOf<T extends FieldType> {
  type: T;
  /** The schema version that introduced it: a record of an older version lacks it (legacy-record drops it). */
  since: number;
  /** Its value in the record decisions get when the stored record lacks it or holds another type. */
  default: FieldDefault<T>;
}

/** A declared field. An array field may state a cap on its entries (a history kept to K entries), which bounded-record checks. */
export type FieldDecl = FieldOf<'number'> | FieldOf<'string'> | FieldOf<'boolean'> | (FieldOf<'array'> & { maxEntries?: number });

/** What an engine does with fields it does not know when it rewrites a record (proto3 dropped them for years). */
export type UnknownFields = 'keep' | 'drop';

/** A rule set's declaration of its records (`RuleSet.recordSchema`). */
export interface RecordSchema {
  /** The schema version of the records this rule set writes. */
  version: number;
  /** The fields it adds to the base ones (`BASE_FIELDS`), by name; a name of the base redeclares it. */
  fields: Readonly<Record<string, FieldDecl>>;
  /** Whether a record it rewrites keeps fields it does not declare (default `keep`). */
  unknownFields?: UnknownFields;
  /** Bound on a record's metadata (everything but the payload), in bytes of JSON (default {@link METADATA_BYTES_DEFAULT}). */
  metadataBytesMax?: number;
}

/** Fields the structure of a record needs: never declared, never dropped by a rewrite. */
export const STRUCTURAL_FIELDS: readonly string[] = ['schema', 'status', 'payload', 'reason'];

/** The schema version a legacy record was written in: before any declared field existed. */
export const LEGACY_SCHEMA = 0;

/** The default metadata bound (bounded-record). */
export const METADATA_BYTES_DEFAULT = 256;

/** The fields every record of schema 1 carries, whatever the rule set (the shipped ones: digest, attempts, resendEpoch). */
export const BASE_FIELDS: Readonly<Record<string, FieldDecl>> = {
  // A legacy record has no digest: the body's own, computed as it reads.
  digest: { type: 'string', since: 1, default: (stored) => (typeof stored.payload === 'string' ? digestOf(stored.payload) : '') },
  attempts: { type: 'number', since: 1, default: 0 },
  resendEpoch: { type: 'number', since: 1, default: 0 },
};

/** The schema of a rule set that declares none: the base fields, schema 1, unknown fields kept, 256 bytes. */
export const SCHEMA_DEFAULT: RecordSchema = { version: 1, fields: {} };

/** The schema a rule set declares, or the default one. */
export function schemaOf(rules: { recordSchema?: RecordSchema }): RecordSchema {
  return rules.recordSchema ?? SCHEMA_DEFAULT;
}

const declaredCache = new WeakMap<RecordSchema, readonly (readonly [string, FieldDecl])[]>();

/** Every field a schema declares, base fields first (a redeclared base field takes the schema's declaration). */
export function declaredFields(schema: RecordSchema): readonly (readonly [string, FieldDecl])[] {
  // Memoised per (immutable) schema: every record read checks each declared field.
  let fields = declaredCache.get(schema);
  if (fields === undefined) {
    const all: Record<string, FieldDecl> = { ...BASE_FIELDS, ...schema.fields };
    fields = Object.entries(all);
    declaredCache.set(schema, fields);
  }
  return fields;
}

const newerCache = new WeakMap<RecordSchema, readonly string[]>();

/** The declared fields a record of the legacy schema lacks: those introduced after it (what legacy-record drops). */
export function fieldsAfterLegacy(schema: RecordSchema): readonly string[] {
  let names = newerCache.get(schema);
  if (names === undefined) {
    names = declaredFields(schema)
      .filter(([, decl]) => decl.since > LEGACY_SCHEMA)
      .map(([name]) => name);
    newerCache.set(schema, names);
  }
  return names;
}

/** Whether a record still holds a field the legacy schema lacks (legacy-record can strip it). */
export function holdsPostLegacyField(record: StoredRecord, schema: RecordSchema): boolean {
  return fieldsAfterLegacy(schema).some((f) => record[f] !== undefined);
}

/** Whether `value` has the type `type`. */
export function hasType(value: unknown, type: FieldType): boolean {
  return type === 'array' ? Array.isArray(value) : typeof value === type;
}

/** The value a field takes when a stored record lacks it or holds another type. */
export function defaultOf(decl: FieldDecl, stored: StoredRecord): unknown {
  const d: unknown = decl.default;
  return typeof d === 'function' ? (d as (s: StoredRecord) => unknown)(stored) : d;
}

/** How a stored record meets a schema: the declared fields it lacks, and those it holds with another type. */
export interface FieldCheck {
  missing: string[];
  illTyped: string[];
}

/** Checks each declared field of `schema` in `stored`. */
export function checkFields(stored: StoredRecord, schema: RecordSchema): FieldCheck {
  const missing: string[] = [];
  const illTyped: string[] = [];
  for (const [name, decl] of declaredFields(schema)) {
    const value = stored[name];
    if (value === undefined) missing.push(name);
    else if (!hasType(value, decl.type)) illTyped.push(name);
  }
  return { missing, illTyped };
}

/**
 * A record as an engine of `schema` writes it: with `unknownFields: 'drop'`
 * only the structural and declared fields survive (its serializer knows no
 * others); with `keep` (the default) the record as the decision returned it.
 */
export function asWritten<R extends StoredRecord>(schema: RecordSchema, record: R): R {
  if (schema.unknownFields !== 'drop') return record;
  const known = new Set([...STRUCTURAL_FIELDS, ...declaredFields(schema).map(([name]) => name)]);
  const kept: Record<string, unknown> = {};
  for (const k of Object.keys(record)) if (known.has(k)) kept[k] = record[k];
  return kept as R;
}

/** Why `value` is not a record schema, or null when it is one (a rule file's declaration, checked as it loads). */
export function recordSchemaProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'is not an object';
  const v = value as Record<string, unknown>;
  if (typeof v.version !== 'number') return 'has no numeric `version`';
  if (v.unknownFields !== undefined && v.unknownFields !== 'keep' && v.unknownFields !== 'drop') return "has an `unknownFields` that is not 'keep' or 'drop'";
  if (v.metadataBytesMax !== undefined && (typeof v.metadataBytesMax !== 'number' || v.metadataBytesMax <= 0)) return 'has a `metadataBytesMax` that is not a positive number';
  if (typeof v.fields !== 'object' || v.fields === null) return 'has no `fields` object';
  for (const [name, d] of Object.entries(v.fields as Record<string, unknown>)) {
    if (STRUCTURAL_FIELDS.includes(name)) return `declares the structural field \`${name}\``;
    const decl = d as Record<string, unknown> | null;
    if (typeof decl !== 'object' || decl === null) return `field \`${name}\` is not an object`;
    if (decl.type !== 'number' && decl.type !== 'string' && decl.type !== 'boolean' && decl.type !== 'array') return `field \`${name}\` has a type that is not number, string, boolean or array`;
    if (typeof decl.since !== 'number') return `field \`${name}\` has no numeric \`since\``;
    if (typeof decl.default !== 'function' && !hasType(decl.default, decl.type)) return `field \`${name}\` has a default that is not a ${decl.type}`;
    if (decl.maxEntries !== undefined && (decl.type !== 'array' || typeof decl.maxEntries !== 'number')) return `field \`${name}\` states \`maxEntries\` but is not an array with a numeric cap`;
  }
  return null;
}

/** Bodies at least this long have their digests remembered (a large body is read at many steps of a run). */
const DIGEST_MEMO_CHARS = 1024;
/** The most characters of long bodies remembered at once (a few worlds' bodies, and what their rules make of them). */
const DIGEST_MEMO_BUDGET = 64 * 1024 * 1024;
const longDigests = new Map<string, string>();
let longDigestChars = 0;

/**
 * Deterministic short digest of a body (FNV-1a, 32 bits, hex). A long body's digest is remembered: a
 * world of large bodies (docs/protocol.md, 'Body shapes') reads the same body's digest at every record
 * read, and hashing a megabyte each time made its runs crawl. The bodies are remembered until they
 * pass a budget of characters, then forgotten oldest first: a body made again as another string (a
 * copy) is found by comparing its characters, a body remembered by its identity.
 */
export function digestOf(body: string): string {
  if (body.length < DIGEST_MEMO_CHARS) return fnv(body);
  let d = longDigests.get(body);
  if (d === undefined) {
    d = fnv(body);
    while (longDigests.size > 0 && longDigestChars + body.length > DIGEST_MEMO_BUDGET) {
      const oldest = longDigests.keys().next().value as string;
      longDigests.delete(oldest);
      longDigestChars -= oldest.length;
    }
    longDigests.set(body, d);
    longDigestChars += body.length;
  }
  return d;
}

function fnv(body: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h ^= body.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
