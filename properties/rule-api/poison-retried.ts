/**
 * fail-closed as it was before poison messages were in the world: its
 * pre-send write marks the send in flight and counts nothing, and only a
 * completed attempt counts against the cap. A body that kills the engine
 * about to send it (a poison message, docs/faults.md) never completes an
 * attempt, so every engine that takes it dies at its POST, the supervisor
 * restarts one, and it takes the body again, for ever:
 * quiet-after-healing finds the crash loop once faults stop.
 * `poison-parked.ts` is the fix, as fail-closed now makes it.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const poisonRetried: RuleSet = extendRules(failClosed, {
  name: 'poison-retried',
  summary: 'fail-closed, but preSend counts no started send: a body that kills the engine before its POST is retried for ever.',
  preSend: (record, view) => {
    // fail-closed's pre-send write without its limits never parks; the count it keeps is dropped.
    const written = failClosed.preSend(record, view === undefined ? undefined : { who: view.who, now: view.now, ...(view.stored === undefined ? {} : { stored: view.stored }) });
    if (written === null) return null;
    const { sends: _sends, ...rest } = written;
    return { ...rest, sends: typeof record.sends === 'number' ? record.sends : 0 };
  },
});

export default poisonRetried;
