/**
 * The receipt store: an append-only JSON-lines file kept as its raw lines, so
 * that damage is byte-level and the reader has to cope with whatever bytes are
 * there. Nothing here deletes or rewrites a line; faults that do so live in
 * the simulator.
 */
import { encodeRow, type ReceiptRow } from './row.ts';

/** The file's content, one string per line, oldest first. */
export interface ReceiptStore {
  readonly lines: readonly string[];
}

/** A store with no rows. */
export const EMPTY_STORE: ReceiptStore = { lines: [] };

/** Appends one row as a new line. */
export function appendRow(store: ReceiptStore, row: ReceiptRow): ReceiptStore {
  return { lines: [...store.lines, encodeRow(row)] };
}

const encoder = new TextEncoder();

/** Bytes on disk, counting one newline per line (the 'bytes kept' layer of docs/receipts.md). */
export function storeBytes(store: ReceiptStore): number {
  let bytes = 0;
  for (const line of store.lines) bytes += encoder.encode(line).length + 1;
  return bytes;
}
