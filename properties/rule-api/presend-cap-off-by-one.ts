/**
 * fail-closed with the attempts cap checked before the send instead of
 * after a failure, as a team does that wants no attempt past the limit
 * started: the pre-send write parks `max-attempts` once `attempts + 1`
 * reaches the limit (a blind review's).
 *
 * Mistake: off by one. The attempt the limit allows last is never sent, and
 * with an attempts limit of 1 no attempt is sent at all: every body parks
 * `max-attempts` on a broker that would have stored it. Each park is honest
 * about the broker (it holds nothing), nothing is lost (a park is visible),
 * and every other property counts a park as settled: the default check was
 * clean. In a world where nothing fails no park reason can be true
 * (docs/properties.md, 'parked-only-on-failure').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const presendCapOffByOne: RuleSet = extendRules(failClosed, {
  name: 'presend-cap-off-by-one',
  summary: 'fail-closed, but the pre-send write parks max-attempts once attempts + 1 reaches the limit.',
  preSend: (record, view) => {
    const cap = view?.limits?.attemptsMax;
    if (cap !== undefined && record.status !== 'PARKED' && record.attempts + 1 >= cap) {
      return { ...record, status: 'PARKED', reason: 'max-attempts', inFlight: false };
    }
    return failClosed.preSend(record, view);
  },
});

export default presendCapOffByOne;
