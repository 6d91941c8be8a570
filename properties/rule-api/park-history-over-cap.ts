/**
 * `park-history-capped.ts` that states the cap (`maxEntries: 2`) but never
 * trims: the third park of an id (after two operator requeues) holds three
 * entries. Its records stay far below 256 bytes, so only the stated cap
 * catches it (bounded-record).
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { completeWithHistory, PARK_HISTORY_SCHEMA } from './park-history-capped.ts';

const parkHistoryOverCap: RuleSet = extendRules(failClosed, {
  name: 'park-history-over-cap',
  summary: 'park-history-capped, but the history is never trimmed to the cap it states.',
  recordSchema: PARK_HISTORY_SCHEMA,
  complete: completeWithHistory(Infinity),
});

export default parkHistoryOverCap;
