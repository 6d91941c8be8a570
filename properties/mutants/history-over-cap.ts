/**
 * Mistake: the record keeps a history of its parks (each park's resend
 * epoch) and states a cap of one entry (`maxEntries: 1`, the last park), but
 * appends without trimming. The entries are small, so the 256-byte bound
 * alone would not catch it within the budget; the cap it states does
 * (bounded-record).
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed, { FAIL_CLOSED_SCHEMA } from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-history-over-cap',
  summary: 'Keeps the epoch of every park in `parks`, a history it declares capped at one entry, without trimming it.',
  recordSchema: { ...FAIL_CLOSED_SCHEMA, fields: { ...FAIL_CLOSED_SCHEMA.fields, parks: { type: 'array', since: 1, default: [], maxEntries: 1 } } },
  complete: (record, outcome, limits, view) =>
    failClosed.complete(record, outcome, limits, view).map((r) =>
      r.status === 'PARKED' ? { ...r, parks: [...(Array.isArray(record.parks) ? record.parks : []), r.resendEpoch] } : r,
    ),
});

export default mutant;
