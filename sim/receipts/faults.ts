/**
 * Byte-level damage to the receipt file. The write-up's experiment damaged
 * rows in place, and an append-only file is also torn when a writer dies in
 * the middle of a line. Every fault here keeps the number of lines and their
 * lengths: bytes are changed, never deleted, so "bytes kept" stays honest and
 * the reader is the only one deciding what a line means.
 */
import { parseLine } from '../../model/receipts/row.ts';

/** Overwrites the second half of a line with junk, as a torn or rotted write leaves it. */
export function damageLine(line: string): string {
  const half = Math.floor(line.length / 2);
  return line.slice(0, half) + '#'.repeat(line.length - half);
}

/** A row of an unrelated command whose writer died mid-line. */
export const TORN_UNRELATED_LINE = '{"v":1,"kind":"pending","key":"unrelated","ta';

/** The schema version a newer writer uses, unknown to this reader. */
export const UNKNOWN_SCHEMA_VERSION = 9;

/**
 * Rewrites a readable row's schema version in place (same length, one digit),
 * as a newer writer would leave it; null when the line is not a readable row.
 */
export function rewriteToUnknownVersion(line: string): string | null {
  const parsed = parseLine(line);
  if (parsed.kind !== 'row') return null;
  const prefix = `{"v":${parsed.row.v},`;
  if (!line.startsWith(prefix) || String(parsed.row.v).length !== 1) return null;
  return `{"v":${UNKNOWN_SCHEMA_VERSION},${line.slice(prefix.length)}`;
}

/**
 * Lines come from a small finite set of strings, so the explorer asks about
 * the same ones millions of times; answers are cached (deterministic, and
 * bounded by clearing when large).
 */
const readable = new Map<string, boolean>();
const READABLE_CACHE_MAX = 10_000;

/** True when a line is a readable row, so that damaging it means something. */
export function isReadableRow(line: string): boolean {
  let r = readable.get(line);
  if (r === undefined) {
    if (readable.size >= READABLE_CACHE_MAX) readable.clear();
    r = parseLine(line).kind === 'row';
    readable.set(line, r);
  }
  return r;
}
