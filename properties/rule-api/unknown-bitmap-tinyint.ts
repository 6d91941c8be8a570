/**
 * fail-closed that also keeps, for a dashboard, a bitmap of the attempts
 * whose outcome was unknown (`unknownMask`, bit n for attempt n), and
 * derives its evidence from it: an attempt marks `unknownSeen` when the mask
 * is above zero (or was marked before). A lost or damaged mask counts as
 * unknown, so the damage alone launders nothing.
 *
 * Mistake: the column is a signed 8-bit integer (a MySQL TINYINT). The bit
 * of attempt 7 is its sign bit: the first unknown outcome at attempt 7
 * makes the mask negative, `mask > 0` is false, and the record stays
 * READY with no evidence; the next refusal parks it `permanent-refusal`
 * for a body the broker holds (honest-park). Only a record still pending
 * at attempt 7, with no unknown outcome before it, meets it: an attempts
 * limit above 8, and 7 failures that were each definite (docs/properties.md,
 * 'Thresholds'). `bitmapRules(16)` is the same rule set over a SMALLINT,
 * whose sign bit is attempt 15.
 */
import failClosed, { FAIL_CLOSED_SCHEMA } from '../../model/catalog/fail-closed.ts';
import { extendRules, type DecisionView, type RuleSet } from '../../model/rules.ts';
import type { RecordSchema } from '../../model/schema.ts';
import type { OutboxRecord } from '../../model/types.ts';

/** A rule set whose unknown-outcome bitmap is a signed integer of `bits` bits. */
export function bitmapRules(bits: 8 | 16): RuleSet {
  const signed = (n: number): number => (n << (32 - bits)) >> (32 - bits);
  const lost = (view: DecisionView | undefined, fields: readonly string[]): boolean => view?.stored !== undefined && fields.some((f) => view.stored?.missing.includes(f) === true || view.stored?.illTyped.includes(f) === true);
  const maskOf = (r: OutboxRecord, view: DecisionView | undefined): number => (lost(view, ['unknownMask']) ? 1 : typeof r.unknownMask === 'number' ? r.unknownMask : 1);
  const bit = (attempts: number): number => 1 << attempts % 31;
  const schema: RecordSchema = { ...FAIL_CLOSED_SCHEMA, fields: { ...FAIL_CLOSED_SCHEMA.fields, unknownMask: { type: 'number', since: 1, default: 0 } } };
  return extendRules(failClosed, {
    name: bits === 8 ? 'unknown-bitmap-tinyint' : 'unknown-bitmap-smallint',
    summary: `fail-closed, but an unknown outcome marks unknownSeen only while a signed ${bits}-bit bitmap of such attempts stays above zero.`,
    recordSchema: schema,
    admit(view) {
      const a = failClosed.admit(view);
      return a.kind === 'write' ? { ...a, record: { ...a.record, unknownMask: 0 } } : a;
    },
    preSend(record, view) {
      const w = failClosed.preSend(record, view);
      if (w === null || record.inFlight !== true || lost(view, ['inFlight', 'unknownSeen'])) return w;
      const mask = signed(maskOf(record, view) | bit(record.attempts));
      return { ...w, unknownMask: mask, unknownSeen: record.unknownSeen === true || mask > 0 };
    },
    complete(record, outcome, limits, view) {
      if (lost(view, ['inFlight', 'unknownSeen'])) return failClosed.complete(record, outcome, limits, view).map((w) => ({ ...w, unknownMask: 1 }));
      const before = maskOf(record, view);
      const prior = record.unknownSeen === true || before > 0;
      const mask = outcome === 'indeterminate' || outcome === 'unclassified' ? signed(before | bit(record.attempts)) : before;
      return failClosed.complete({ ...record, unknownSeen: prior }, outcome, limits, view).map((w) => (w.status === 'READY' ? { ...w, unknownMask: mask, unknownSeen: prior || mask > 0 } : { ...w, unknownMask: mask }));
    },
  });
}

const unknownBitmapTinyint: RuleSet = bitmapRules(8);

export default unknownBitmapTinyint;
