/**
 * Item "which records an engine selects" (docs/rules.md, 'Selection'):
 * fail-closed, but the engine selects only records with fewer than
 * `SELECT_CAP` attempts (`SELECT ... WHERE attempts < N`), as real relays do.
 *
 * Mistake: nothing parks a record at that cap. `complete` parks at the
 * engine's own `attemptsMax`, which is higher, so a record that reaches the
 * cap stays READY, unselected, forever: its body is neither sent, parked nor
 * quarantined (settled-after-healing: the file is left live with no cause).
 * `select-below-cap-parks.ts` parks at the cap it selects by.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { payloadAltered } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** Attempts after which a record is no longer selected. */
export const SELECT_CAP = 1;

const selectBelowCap: RuleSet = extendRules(failClosed, {
  name: 'select-below-cap',
  summary: `fail-closed, but only records with fewer than ${SELECT_CAP} attempts are selected; nothing parks at that cap.`,
  // fail-closed's own selection too: a payload its digest does not name is never sent.
  selectable: (record) => record.attempts < SELECT_CAP && !payloadAltered(record),
});

export default selectBelowCap;
