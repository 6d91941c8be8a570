/**
 * Which selections read the record alone (model/rules.ts, `byRecordAlone`):
 * only a decision marked so, never one judged by its arity, since a decision
 * of one declared parameter may still read the view.
 */
import { describe, expect, it } from 'vitest';
import failClosed from './catalog/fail-closed.ts';
import { byRecordAlone, extendRules, selectsByRecordAlone } from './rules.ts';
import type { OutboxRecord } from './types.ts';

describe('a selection by the record alone', () => {
  it('is fail-closed’s, kept by a rule set that extends it, and one marked so', () => {
    expect(selectsByRecordAlone(failClosed)).toBe(true);
    expect(selectsByRecordAlone(extendRules(failClosed, { name: 'x', summary: 'x' }))).toBe(true);
    expect(selectsByRecordAlone({ ...failClosed, selectable: byRecordAlone((r: OutboxRecord) => r.attempts < 3) })).toBe(true);
    expect(selectsByRecordAlone({ ...failClosed, selectable: undefined })).toBe(true);
  });

  it('is not one of one declared parameter that reads the view through a default or rest parameter', () => {
    const late = (record: OutboxRecord, view: { now: number } = { now: 0 }): boolean => view.now >= Number(record.retryAt ?? 0);
    expect(late.length).toBe(1);
    expect(selectsByRecordAlone({ ...failClosed, selectable: late })).toBe(false);
    const rest = (...args: [OutboxRecord, { now: number }]): boolean => args[1].now > 0;
    expect(selectsByRecordAlone({ ...failClosed, selectable: rest })).toBe(false);
  });
});
