/**
 * A 503 leaves the record as it is: `complete` returns no write for a
 * transient outcome (an empty list is a legal answer: nothing is written,
 * docs/rules.md, 'The decisions'). Nothing counts the attempt, so against a
 * broker that keeps answering 503 the engine retries forever:
 * quiet-after-healing finds the hot loop.
 */
import failClosed, { markInFlight } from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const transientWritesNothing: RuleSet = extendRules(failClosed, {
  name: 'transient-writes-nothing',
  summary: 'fail-closed, but a transient outcome writes nothing (the record is left as it was read).',
  complete: (record, outcome, limits, view) => (outcome === 'transient' ? [] : failClosed.complete(record, outcome, limits, view)),
  // fail-closed's pre-send write as it was: it counts no unfinished send (fail-closed, which counts the one a
  // transient completion leaves in flight, would park the endless retry).
  preSend: (record, view) => markInFlight(record, view, undefined),
});

export default transientWritesNothing;
