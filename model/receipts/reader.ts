/**
 * The newest-first reader (docs/receipts.md, 'Reader'). It skips rows it cannot parse
 * and rows of a schema version it does not know, so a damaged `completed` row
 * lets an older `pending` row show through. Unlike the reader of the
 * write-up, it says so: the result carries both the record it found and a
 * diagnostic of how healthy the reading was, with counts of what it skipped.
 */
import { KNOWN_SCHEMA_VERSIONS, parseLine, type ReceiptRow } from './row.ts';
import type { ReceiptStore } from './store.ts';

/**
 * How reading went: `found` and `absent` when every row scanned was readable;
 * `corrupt` when at least one scanned row could not be parsed; `unknown-version`
 * when rows were skipped only for their schema version. Corrupt wins over
 * unknown-version because lost bytes are the worse news; the counts keep both.
 */
export type ReadDiagnostic = 'found' | 'absent' | 'corrupt' | 'unknown-version';

/** Rows skipped on the way to the answer, by reason. */
export interface SkippedRows {
  corrupt: number;
  unknownVersion: number;
}

/** What one read returns: the record and the diagnostic, independently. */
export interface ReadResult {
  /** The newest readable row for the key, or null. */
  record: ReceiptRow | null;
  /** Index of that row's line, or null. */
  line: number | null;
  diagnostic: ReadDiagnostic;
  skipped: SkippedRows;
  /** Lines looked at, newest first, including the one found. */
  scanned: number;
}

/** A reader as the kernel calls it; the simulator may hand the kernel one that throws. */
export type Reader = (store: ReceiptStore, key: string) => ReadResult;

/**
 * Scans newest first and stops at the first readable row for `key`. Skipped
 * rows cannot be attributed to a key (their bytes are not trustworthy), so
 * every row skipped before the answer is counted.
 */
export function readNewest(store: ReceiptStore, key: string, known: readonly number[] = KNOWN_SCHEMA_VERSIONS): ReadResult {
  const skipped: SkippedRows = { corrupt: 0, unknownVersion: 0 };
  let scanned = 0;
  for (let i = store.lines.length - 1; i >= 0; i--) {
    scanned++;
    const parsed = parseLine(store.lines[i], known);
    if (parsed.kind === 'corrupt') skipped.corrupt++;
    else if (parsed.kind === 'unknown-version') skipped.unknownVersion++;
    else if (parsed.row.key === key) return { record: parsed.row, line: i, diagnostic: diagnose(true, skipped), skipped, scanned };
  }
  return { record: null, line: null, diagnostic: diagnose(false, skipped), skipped, scanned };
}

function diagnose(found: boolean, skipped: SkippedRows): ReadDiagnostic {
  if (skipped.corrupt > 0) return 'corrupt';
  if (skipped.unknownVersion > 0) return 'unknown-version';
  return found ? 'found' : 'absent';
}
