import { describe, expect, it } from 'vitest';
import { readNewest } from './reader.ts';
import { RECEIPT_SCHEMA_VERSION, type ReceiptRow } from './row.ts';
import { appendRow, EMPTY_STORE, storeBytes, type ReceiptStore } from './store.ts';

const pending: ReceiptRow = { v: RECEIPT_SCHEMA_VERSION, kind: 'pending', key: 'k1', task: 't1', round: 1, rev: 1 };
const completed: ReceiptRow = { ...pending, kind: 'completed', result: 'started a1' };
const other: ReceiptRow = { ...completed, key: 'k0' };

/** The pending and completed receipts of k1, oldest first. */
const both = (): ReceiptStore => appendRow(appendRow(EMPTY_STORE, pending), completed);
const withLine = (s: ReceiptStore, i: number, line: string): ReceiptStore => ({ lines: s.lines.map((l, j) => (j === i ? line : l)) });
const damaged = (line: string): string => line.slice(0, 10) + '#'.repeat(line.length - 10);

describe('readNewest: the record found and the reading diagnostic are separate', () => {
  it('finds the newest intact row: found, nothing skipped', () => {
    const r = readNewest(both(), 'k1');
    expect(r).toMatchObject({ record: completed, line: 1, diagnostic: 'found', skipped: { corrupt: 0, unknownVersion: 0 }, scanned: 1 });
  });

  it('finds nothing in an empty store, or one holding only other keys: absent', () => {
    expect(readNewest(EMPTY_STORE, 'k1')).toMatchObject({ record: null, line: null, diagnostic: 'absent', scanned: 0 });
    expect(readNewest(appendRow(EMPTY_STORE, other), 'k1')).toMatchObject({ record: null, diagnostic: 'absent', scanned: 1 });
  });

  it('lets the older pending row show through a damaged completion, and says corrupt', () => {
    const s = withLine(both(), 1, damaged(both().lines[1]));
    expect(readNewest(s, 'k1')).toMatchObject({ record: pending, line: 0, diagnostic: 'corrupt', skipped: { corrupt: 1, unknownVersion: 0 } });
  });

  it('finds nothing when both receipts are damaged, and says corrupt rather than absent', () => {
    const s = withLine(withLine(both(), 1, damaged(both().lines[1])), 0, damaged(both().lines[0]));
    expect(readNewest(s, 'k1')).toMatchObject({ record: null, diagnostic: 'corrupt', skipped: { corrupt: 2, unknownVersion: 0 }, scanned: 2 });
  });

  it('skips a row of an unknown schema version and says unknown-version', () => {
    const s = withLine(both(), 1, both().lines[1].replace('{"v":1,', '{"v":9,'));
    expect(readNewest(s, 'k1')).toMatchObject({ record: pending, diagnostic: 'unknown-version', skipped: { corrupt: 0, unknownVersion: 1 } });
  });

  it('reports corrupt over unknown-version when both were skipped, with both counts', () => {
    const s = withLine(withLine(both(), 1, both().lines[1].replace('{"v":1,', '{"v":9,')), 0, damaged(both().lines[0]));
    expect(readNewest(s, 'k1')).toMatchObject({ record: null, diagnostic: 'corrupt', skipped: { corrupt: 1, unknownVersion: 1 } });
  });

  it('still returns the target completion past an unrelated malformed line, flagged corrupt', () => {
    const s: ReceiptStore = { lines: [...both().lines, '{"v":1,"kind":"pen'] };
    expect(readNewest(s, 'k1')).toMatchObject({ record: completed, diagnostic: 'corrupt', skipped: { corrupt: 1, unknownVersion: 0 } });
  });

  it('counts only rows skipped before the answer (older damage is not scanned)', () => {
    const s = withLine(both(), 0, damaged(both().lines[0]));
    expect(readNewest(s, 'k1')).toMatchObject({ record: completed, diagnostic: 'found', skipped: { corrupt: 0, unknownVersion: 0 } });
  });

  it('treats a known version with a wrong shape as corrupt', () => {
    const s: ReceiptStore = { lines: ['{"v":1,"kind":"completed","key":"k1","task":"t1","round":1,"rev":1}', '[1,2]', 'null'] };
    expect(readNewest(s, 'k1')).toMatchObject({ record: null, diagnostic: 'corrupt', skipped: { corrupt: 3, unknownVersion: 0 } });
  });

  it('never changes the bytes it reads', () => {
    const s = withLine(both(), 1, damaged(both().lines[1]));
    const before = JSON.stringify(s);
    readNewest(s, 'k1');
    expect(JSON.stringify(s)).toBe(before);
    expect(storeBytes(s)).toBe(storeBytes(both()));
  });
});
