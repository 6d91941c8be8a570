import { describe, expect, it } from 'vitest';
import { parseLine, RECEIPT_SCHEMA_VERSION } from '../../model/receipts/row.ts';
import { appendRow, EMPTY_STORE } from '../../model/receipts/store.ts';
import { damageLine, isReadableRow, rewriteToUnknownVersion, TORN_UNRELATED_LINE, UNKNOWN_SCHEMA_VERSION } from './faults.ts';

const line = appendRow(EMPTY_STORE, { v: RECEIPT_SCHEMA_VERSION, kind: 'completed', key: 'k1', task: 't1', round: 1, rev: 1, result: 'started a1' }).lines[0];

describe('byte-level receipt faults', () => {
  it('damage keeps the length and makes the line unreadable', () => {
    const d = damageLine(line);
    expect(d).toHaveLength(line.length);
    expect(parseLine(d)).toEqual({ kind: 'corrupt' });
    expect(isReadableRow(d)).toBe(false);
    expect(isReadableRow(line)).toBe(true);
  });

  it('an unknown schema version keeps the length and the rest of the row', () => {
    const u = rewriteToUnknownVersion(line);
    expect(u).not.toBeNull();
    expect(u).toHaveLength(line.length);
    expect(parseLine(u ?? '')).toEqual({ kind: 'unknown-version', version: UNKNOWN_SCHEMA_VERSION });
    expect(rewriteToUnknownVersion(TORN_UNRELATED_LINE)).toBeNull();
  });

  it('the torn unrelated line is not a row', () => {
    expect(parseLine(TORN_UNRELATED_LINE)).toEqual({ kind: 'corrupt' });
  });
});
