/**
 * fail-closed keeping a short park history in the record, as some relays do
 * for the operator: each park appends its resend epoch to `parks`, a
 * declared array field whose cap the rule set states (`maxEntries: 2`), and
 * keeps only the last two. bounded-record checks the stated cap: clean.
 * `park-history-over-cap.ts` states the same cap and forgets to trim.
 */
import failClosed, { FAIL_CLOSED_SCHEMA } from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import type { RecordSchema } from '../../model/schema.ts';
import type { OutboxRecord } from '../../model/types.ts';

/** The stated cap on `parks`. */
export const PARKS_KEPT = 2;

export const PARK_HISTORY_SCHEMA: RecordSchema = {
  ...FAIL_CLOSED_SCHEMA,
  fields: { ...FAIL_CLOSED_SCHEMA.fields, parks: { type: 'array', since: 1, default: [], maxEntries: PARKS_KEPT } },
};

/** `complete` of fail-closed, appending each park's epoch to `parks`, kept to its last `keep` entries (`Infinity`: all). */
export function completeWithHistory(keep: number): RuleSet['complete'] {
  return (record, outcome, limits, view) =>
    failClosed.complete(record, outcome, limits, view).map((r): OutboxRecord => {
      if (r.status !== 'PARKED') return r;
      const parks = [...(Array.isArray(record.parks) ? record.parks : []), r.resendEpoch];
      return { ...r, parks: parks.slice(Math.max(0, parks.length - keep)) };
    });
}

const parkHistoryCapped: RuleSet = extendRules(failClosed, {
  name: 'park-history-capped',
  summary: 'fail-closed keeping the epochs of the last two parks in the record (a declared, capped history).',
  recordSchema: PARK_HISTORY_SCHEMA,
  complete: completeWithHistory(PARKS_KEPT),
});

export default parkHistoryCapped;
