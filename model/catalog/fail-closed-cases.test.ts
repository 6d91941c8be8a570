/**
 * fail-closed's matches pick a branch once per case (the read's kind,
 * metadata-only flag and status; the outcome) and keep it: the branch is
 * then applied to each input of that case. Here each case is decided twice
 * in one process, with inputs that differ in what the branch itself reads
 * (the body, the payload, the park reason, the attempts), so a kept branch
 * that kept the first input's answer, or a case key that merged two
 * branches, shows.
 */
import { describe, expect, it } from 'vitest';
import failClosed, { FAIL_CLOSED_SCHEMA } from './fail-closed.ts';
import { freshRecordOf } from '../record.ts';
import type { AdmitView } from '../rules.ts';
import type { OutboxRecord, RecordRead } from '../types.ts';

const record = (patch: Partial<OutboxRecord>): OutboxRecord => ({ ...freshRecordOf(FAIL_CLOSED_SCHEMA, 'A', 0), ...patch });
const found = (r: OutboxRecord, metadataOnly = false): RecordRead =>
  metadataOnly ? { kind: 'found', record: r, legacy: false, stored: { raw: r, missing: [], illTyped: [] }, metadataOnly: true } : { kind: 'found', record: r, legacy: false, stored: { raw: r, missing: [], illTyped: [] } };
const admit = (read: RecordRead, body: string) => failClosed.admit({ id: 'a', body, read } as AdmitView);

describe('fail-closed decided case by case', () => {
  it('admits each read by its own body, payload and reason, the second time of a case as the first', () => {
    expect(admit({ kind: 'absent' }, 'A')).toEqual({ kind: 'write', record: freshRecordOf(FAIL_CLOSED_SCHEMA, 'A', 0) });
    expect(admit({ kind: 'absent' }, 'B')).toEqual({ kind: 'write', record: freshRecordOf(FAIL_CLOSED_SCHEMA, 'B', 0) });
    expect(admit({ kind: 'unknown-version', schema: 2 }, 'A')).toEqual({ kind: 'quarantine', cause: 'unknown-schema-v2' });
    expect(admit({ kind: 'unknown-version', schema: 7 }, 'A')).toEqual({ kind: 'quarantine', cause: 'unknown-schema-v7' });
    expect(admit({ kind: 'corrupt' }, 'A')).toEqual({ kind: 'quarantine', cause: 'corrupt-record' });
    expect(admit(found(record({ status: 'DELIVERED' })), 'A')).toEqual({ kind: 'keep' });
    expect(admit(found(record({ status: 'DELIVERED' })), 'B')).toEqual({ kind: 'quarantine', cause: 'delivered-id-new-body' });
    expect(admit(found(record({ status: 'PARKED', reason: 'max-attempts' })), 'A')).toEqual({ kind: 'quarantine', cause: 'parked-max-attempts' });
    expect(admit(found(record({ status: 'PARKED', reason: 'outcome-unknown' })), 'A')).toEqual({ kind: 'quarantine', cause: 'parked-outcome-unknown' });
    expect(admit(found(record({ status: 'PARKED', reason: 'max-attempts' })), 'B')).toEqual({ kind: 'quarantine', cause: 'parked-id-new-body' });
    expect(admit(found(record({ status: 'READY' })), 'B')).toEqual({ kind: 'keep' });
    // Metadata-only (a tombstone) goes by its flag before its status: DELIVERED and another status differ.
    const { payload: _payload, ...tomb } = record({ status: 'DELIVERED' });
    expect(admit(found(tomb as OutboxRecord, true), 'A')).toEqual({ kind: 'quarantine', cause: 'delivered-id-retained' });
    expect(admit(found({ ...tomb, status: 'PARKED' } as OutboxRecord, true), 'A')).toEqual({ kind: 'quarantine', cause: 'corrupt-record' });
    // The same record read without the flag is decided by its status.
    expect(admit(found({ ...tomb, payload: 'A' } as OutboxRecord), 'A')).toEqual({ kind: 'keep' });
  });

  it('completes each record by its own attempts and evidence, the second time of an outcome as the first', () => {
    const limits = { attemptsMax: 3 };
    const r0 = record({ attempts: 0 });
    const r2 = record({ attempts: 2, unknownSeen: true });
    expect(failClosed.complete(r0, 'transient', limits)).toEqual([{ ...r0, inFlight: false, unknownSeen: false, attempts: 1 }]);
    expect(failClosed.complete(r2, 'transient', limits)).toEqual([{ ...r2, inFlight: false, unknownSeen: true, attempts: 3, status: 'PARKED', reason: 'outcome-unknown' }]);
    expect(failClosed.complete(r0, 'indeterminate', limits)).toEqual([{ ...r0, inFlight: false, unknownSeen: true, attempts: 1 }]);
    expect(failClosed.complete(r0, 'definite', limits)).toEqual([{ ...r0, inFlight: false, unknownSeen: false, status: 'PARKED', reason: 'permanent-refusal' }]);
    expect(failClosed.complete(r2, 'definite', limits)).toEqual([{ ...r2, inFlight: false, unknownSeen: true, status: 'PARKED', reason: 'outcome-unknown' }]);
    expect(failClosed.complete(r2, 'confirmed', limits)).toEqual([{ ...r2, inFlight: false, unknownSeen: true, status: 'DELIVERED' }]);
  });
});
