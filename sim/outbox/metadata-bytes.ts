/**
 * A record's metadata size (everything but the payload, in bytes of JSON),
 * as `metadataBytes` (model/record.ts) measures it, without building the
 * JSON text: bounded-record measures every record a step writes, and
 * stringifying a copy of each (then memoising it by record) was a tenth of a
 * seeded run. A value this does not measure exactly (an escaped or non-ASCII
 * string, an object with `toJSON`, anything but plain data) is measured by
 * `metadataBytes` itself; `metadata-bytes.test.ts` holds the two equal.
 */
import { metadataBytes } from '../../model/record.ts';
import type { OutboxRecord } from '../../model/types.ts';

/** Not measured here: the value is left to `JSON.stringify`. */
const UNKNOWN = -1;

/** Length of a string's JSON text, when it needs no escape and is ASCII (then one byte a character); else {@link UNKNOWN}. */
function stringLength(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return UNKNOWN;
  }
  return s.length + 2;
}

/** Length of a value's JSON text inside an array or object, or {@link UNKNOWN}; `omitted` for what an object leaves out. */
function valueLength(v: unknown, depth: number): number {
  switch (typeof v) {
    case 'string':
      return stringLength(v);
    case 'number':
      // JSON writes a finite number as String does (-0 as 0), anything else as null.
      return Number.isFinite(v) ? String(v).length : 4;
    case 'boolean':
      return v ? 4 : 5;
    case 'object':
      if (v === null) return 4;
      return depth > 8 ? UNKNOWN : Array.isArray(v) ? arrayLength(v, depth + 1) : objectLength(v, null, depth + 1);
    default:
      return UNKNOWN;
  }
}

function arrayLength(a: readonly unknown[], depth: number): number {
  if (Object.getPrototypeOf(a) !== Array.prototype) return UNKNOWN;
  let n = 2 + Math.max(0, a.length - 1);
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    // Inside an array, what an object would leave out is written null.
    const k = v === undefined ? 4 : valueLength(v, depth);
    if (k === UNKNOWN) return UNKNOWN;
    n += k;
  }
  return n;
}

/** Length of a plain object's JSON text, leaving out the key `skip` (the payload), or {@link UNKNOWN}. */
function objectLength(o: object, skip: string | null, depth: number): number {
  const proto = Object.getPrototypeOf(o) as unknown;
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in o) return UNKNOWN;
  let n = 2;
  let fields = 0;
  const values = o as Record<string, unknown>;
  for (const key in values) {
    if (key === skip || !Object.prototype.hasOwnProperty.call(values, key)) continue;
    const v = values[key];
    // JSON leaves out undefined, functions and symbols; anything else (a bigint, which throws) is left to it.
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    const k = valueLength(v, depth);
    const keyLength = stringLength(key);
    if (k === UNKNOWN || keyLength === UNKNOWN) return UNKNOWN;
    n += keyLength + 1 + k;
    fields++;
  }
  return n + Math.max(0, fields - 1);
}

/** `metadataBytes(record)`, measured without building its JSON when it can be. */
export function recordMetadataBytes(record: OutboxRecord): number {
  const n = objectLength(record, 'payload', 0);
  return n === UNKNOWN ? metadataBytes(record) : n;
}
