/**
 * fresh-cycle-after-definite: a parked id admits a different body as a fresh
 * cycle only when the park was a definite refusal, judged by the last attempt.
 * Known to break when an earlier attempt stored the body with its reply lost
 * and a later attempt got a 409.
 */
import { extendRules, type RuleSet } from '../rules.ts';
import failClosed from './fail-closed.ts';
import { admitFreshCycleWhen } from './fresh-cycle-when.ts';

const freshCycleAfterDefinite: RuleSet = extendRules(failClosed, {
  name: 'fresh-cycle-after-definite',
  summary: 'A parked id admits a different body as a fresh cycle only when the last attempt was a definite refusal.',
  admit: admitFreshCycleWhen(failClosed, (record) => record.status === 'PARKED' && record.reason === 'permanent-refusal'),
  // Judged by the last attempt: a refusal parks as permanent-refusal even after
  // an attempt whose outcome is unknown (fail-closed says outcome-unknown there).
  complete: (record, outcome, limits) =>
    outcome === 'definite'
      ? [{ ...record, inFlight: false, status: 'PARKED', reason: 'permanent-refusal' }]
      : failClosed.complete(record, outcome, limits),
});

export default freshCycleAfterDefinite;
