/**
 * Item "time", a retry window (docs/rules.md, 'Time'): `retry-window.ts`,
 * but a record whose window closed parks `retry-window-exhausted` whatever
 * its attempts showed, as a relay that reports "gave up retrying" does.
 *
 * Mistake: a reply lost after the broker stored the body (or a garbled one)
 * leaves the outcome unknown; the window then closes on a retry and the park
 * says the body was not delivered while the broker holds it (honest-park).
 * `retry-window.ts` parks `outcome-unknown` then, and is clean.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import retryWindow, { firstTriedAt, RETRY_WINDOW } from './retry-window.ts';

const retryWindowDishonest: RuleSet = extendRules(retryWindow, {
  name: 'retry-window-dishonest',
  summary: 'retry-window, parking retry-window-exhausted even when an attempt may have stored the body.',
  complete: (record, outcome, limits, view) =>
    failClosed.complete(record, outcome, limits, view).map((r) => {
      const first = firstTriedAt(r);
      const exhausted = r.status === 'READY' && first !== null && (view?.now ?? 0) - first >= RETRY_WINDOW;
      return exhausted ? { ...r, status: 'PARKED', reason: 'retry-window-exhausted' } : r;
    }),
});

export default retryWindowDishonest;
