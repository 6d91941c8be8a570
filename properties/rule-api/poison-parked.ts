/**
 * A rule set of its own that parks a body in `preSend` instead of sending
 * it, once it has started more sends than its cap and one of them never
 * completed: the engine writes the PARKED record and does not POST (the
 * rule API's "park instead of send", docs/rules.md, 'The decisions'). Its
 * count of started sends (`tries`) is a field it declares; the park says
 * `outcome-unknown`, since a send that never completed may have stored the
 * body. Clean, poison messages included.
 */
import failClosed, { FAIL_CLOSED_SCHEMA } from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const poisonParked: RuleSet = extendRules(failClosed, {
  name: 'poison-parked',
  summary: 'fail-closed, but its own count of started sends (tries): past the cap with a send that never completed, preSend parks outcome-unknown instead of sending.',
  recordSchema: { ...FAIL_CLOSED_SCHEMA, fields: { ...FAIL_CLOSED_SCHEMA.fields, tries: { type: 'number', since: 1, default: 0 } } },
  preSend: (record, view) => {
    const written = failClosed.preSend(record, view === undefined ? undefined : { who: view.who, now: view.now, ...(view.stored === undefined ? {} : { stored: view.stored }) });
    if (written === null) return null;
    const damaged = view?.stored !== undefined && (view.stored.missing.includes('tries') || view.stored.illTyped.includes('tries'));
    const tries = damaged || typeof record.tries !== 'number' ? record.attempts : Math.max(record.tries, record.attempts);
    const cap = view?.limits?.attemptsMax;
    if (cap !== undefined && tries >= cap && tries > record.attempts) {
      return { ...record, inFlight: false, unknownSeen: true, status: 'PARKED', reason: 'outcome-unknown' };
    }
    return { ...written, tries: tries + 1 };
  },
  requeue: (record, resetAttempts, view) => {
    const requeued = failClosed.requeue(record, resetAttempts, view);
    return { ...requeued, tries: requeued.attempts };
  },
});

export default poisonParked;
