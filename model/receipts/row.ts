/**
 * One receipt row of the command kernel's JSON-lines store (docs/receipts.md, 'Store'):
 * `pending` when handling starts, `completed` with the result when it ends,
 * each with its schema version and the governance revision it ran under.
 * Parsing is strict so that damaged bytes read as damage, never as a record.
 */

/** The schema version this kernel writes. */
export const RECEIPT_SCHEMA_VERSION = 1;

/** Schema versions the reader understands. */
export const KNOWN_SCHEMA_VERSIONS: readonly number[] = [RECEIPT_SCHEMA_VERSION];

/** Written when handling of a command starts. */
export interface PendingRow {
  v: number;
  kind: 'pending';
  key: string;
  task: string;
  round: number;
  rev: number;
}

/** Written when handling ends, with what the executor callback returned. */
export interface CompletedRow {
  v: number;
  kind: 'completed';
  key: string;
  task: string;
  round: number;
  rev: number;
  result: string;
}

/** A receipt row as the kernel writes it. */
export type ReceiptRow = PendingRow | CompletedRow;

/** How one line parses: a row, bytes that are not a row, or a row of a schema this reader does not know. */
export type ParsedLine =
  | { kind: 'row'; row: ReceiptRow }
  | { kind: 'corrupt' }
  | { kind: 'unknown-version'; version: number };

/** Encodes a row as one JSON line (no newline), fields in a fixed order so equal rows give equal bytes. */
export function encodeRow(row: ReceiptRow): string {
  const base = { v: row.v, kind: row.kind, key: row.key, task: row.task, round: row.round, rev: row.rev };
  return JSON.stringify(row.kind === 'completed' ? { ...base, result: row.result } : base);
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Parses one line; never throws. A wrong shape under a known version counts as corrupt. */
export function parseLine(line: string, known: readonly number[] = KNOWN_SCHEMA_VERSIONS): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'corrupt' };
  }
  if (!isRecord(value) || typeof value.v !== 'number') return { kind: 'corrupt' };
  if (!known.includes(value.v)) return { kind: 'unknown-version', version: value.v };
  const { v, kind, key, task, round, rev } = value;
  if (typeof key !== 'string' || typeof task !== 'string' || typeof round !== 'number' || typeof rev !== 'number') {
    return { kind: 'corrupt' };
  }
  if (kind === 'pending') return { kind: 'row', row: { v, kind, key, task, round, rev } };
  if (kind === 'completed' && typeof value.result === 'string') {
    return { kind: 'row', row: { v, kind, key, task, round, rev, result: value.result } };
  }
  return { kind: 'corrupt' };
}
