/**
 * fail-closed as it was before poison messages were in the world: its
 * pre-send write marks the send in flight and counts nothing (an
 * unfinished send it finds is not counted as an attempt), and only a
 * completed attempt counts against the cap. A body that kills the engine
 * about to send it (a poison message, docs/faults.md) never completes an
 * attempt, so every engine that takes it dies at its POST, the supervisor
 * restarts one, and it takes the body again, for ever:
 * quiet-after-healing finds the crash loop once faults stop.
 * `poison-parked.ts` is one fix (a count of started sends of its own);
 * fail-closed now counts an unfinished send it finds as an attempt.
 */
import failClosed, { markInFlight } from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const poisonRetried: RuleSet = extendRules(failClosed, {
  name: 'poison-retried',
  summary: 'fail-closed, but preSend counts no unfinished send: a body that kills the engine before its POST is retried for ever.',
  // fail-closed's pre-send write without the cap: an unfinished send found is not counted, so it never parks.
  preSend: (record, view) => markInFlight(record, view, undefined),
});

export default poisonRetried;
