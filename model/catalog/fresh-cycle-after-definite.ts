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
});

export default freshCycleAfterDefinite;
