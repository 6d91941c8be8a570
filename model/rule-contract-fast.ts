/**
 * The decision contracts of `rule-contract.ts`, asked the cheap way first.
 * A guarded rule set checks every value a decision returns, at every call;
 * through the contract's schema that took about 6% of the CPU of a check of
 * a rule file (docs/performance.md, 'Checking a rule file of your own').
 * These tests read each field once, with `typeof` and set look-ups, and
 * say only "it keeps the contract" or "ask the schema": a value they accept
 * the schema accepts (`rule-contract-fast.test.ts` holds them to it over
 * generated values), and anything else, a broken value included, goes to
 * the schema, which alone says what is wrong. So a rule set is held to
 * exactly the contract it was.
 */
import { OUTCOMES, PARK_REASONS, STATUSES } from './types.ts';
import type { RecordShape } from './record.ts';
import type { Decision } from './rule-fault.ts';

const STATUS_SET: ReadonlySet<unknown> = new Set(STATUSES);
const PARK_REASON_SET: ReadonlySet<unknown> = new Set(PARK_REASONS);
const OUTCOME_SET: ReadonlySet<unknown> = new Set(OUTCOMES);

/** What the schema's `z.number()` accepts: a finite number. */
const isNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);

/** An object the schema reads fields of: not null, not an array (the schema refuses both). */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A record: `payloadOptional` for a rule set that declares metadata-only
 * records legal, `stored` for `requeue`'s stored record (digest, attempts and
 * resend epoch may be absent, as on a legacy record).
 */
function isRecord(v: unknown, payloadOptional: boolean, stored: boolean): boolean {
  if (!isObject(v)) return false;
  const { schema, status, payload, digest, attempts, resendEpoch, reason } = v;
  if (!isNumber(schema) || !STATUS_SET.has(status)) return false;
  if (typeof payload !== 'string' && !(payloadOptional && payload === undefined)) return false;
  if (typeof digest !== 'string' && !(stored && digest === undefined)) return false;
  if (!isNumber(attempts) && !(stored && attempts === undefined)) return false;
  if (!isNumber(resendEpoch) && !(stored && resendEpoch === undefined)) return false;
  return reason === undefined || PARK_REASON_SET.has(reason);
}

/** A result file: `{ id, body, generation }`. */
const isFile = (v: unknown): boolean => isObject(v) && typeof v.id === 'string' && typeof v.body === 'string' && isNumber(v.generation);

function isAdmission(v: unknown, payloadOptional: boolean): boolean {
  if (!isObject(v)) return false;
  switch (v.kind) {
    case 'write':
      return isRecord(v.record, payloadOptional, false);
    case 'quarantine':
      return typeof v.cause === 'string';
    case 'keep':
    case 'leave':
      return true;
    default:
      return false;
  }
}

function isDisposal(v: unknown): boolean {
  if (!isObject(v)) return false;
  switch (v.kind) {
    case 'archive':
      return isFile(v.file);
    case 'quarantine':
      return isFile(v.file) && typeof v.cause === 'string';
    case 'leave':
      return true;
    default:
      return false;
  }
}

function isRecordList(v: unknown, payloadOptional: boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!isRecord(v[i], payloadOptional, false)) return false;
  return true;
}

/**
 * True when `value` certainly keeps `decision`'s contract for records of
 * `shape`; false when the schema must say (it may still keep it). Never
 * throws: a field read that throws (a getter) leaves it to the schema.
 */
export function keepsContract(decision: Decision, value: unknown, shape: RecordShape): boolean {
  const payloadOptional = shape.payload === 'optional';
  try {
    switch (decision) {
      case 'mayClaim':
      case 'selectable':
      case 'fences':
      case 'sweepable':
        return typeof value === 'boolean';
      case 'classify':
        return OUTCOME_SET.has(value);
      case 'admit':
        return isAdmission(value, payloadOptional);
      case 'preSend':
        // A PARKED pre-send write parks instead of sending, and must carry its park reason.
        return value === null || (isRecord(value, payloadOptional, false) && ((value as Record<string, unknown>).status !== 'PARKED' || (value as Record<string, unknown>).reason !== undefined));
      case 'complete':
        return isRecordList(value, payloadOptional);
      case 'requeue':
        return isRecord(value, payloadOptional, true);
      case 'envelope':
        return isObject(value) && typeof value.id === 'string' && typeof value.body === 'string' && typeof value.key === 'string';
      case 'dispose':
        return isDisposal(value);
      case 'decode':
        return typeof value === 'string';
      default:
        return false;
    }
  } catch {
    return false;
  }
}
