/**
 * `select-below-cap.ts` fixed: `complete` parks at the cap the selection
 * uses (or at the engine's `attemptsMax` if lower), so no record is left
 * READY and unselected.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import selectBelowCap, { SELECT_CAP } from './select-below-cap.ts';

const selectBelowCapParks: RuleSet = extendRules(selectBelowCap, {
  name: 'select-below-cap-parks',
  summary: `fail-closed, selecting records with fewer than ${SELECT_CAP} attempts and parking at that cap.`,
  complete: (record, outcome, limits) => failClosed.complete(record, outcome, { attemptsMax: Math.min(limits.attemptsMax, SELECT_CAP) }),
});

export default selectBelowCapParks;
