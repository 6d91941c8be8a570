/**
 * fresh-cycle: a parked id admits a different body as a fresh cycle (READY,
 * attempts 0, resend epoch + 1). Everything else is fail-closed.
 * Known to break no-phantom-delivery under a broker that dedupes by id.
 */
import { extendRules, type RuleSet } from '../rules.ts';
import failClosed from './fail-closed.ts';
import { admitFreshCycleWhen } from './fresh-cycle-when.ts';

const freshCycle: RuleSet = extendRules(failClosed, {
  name: 'fresh-cycle',
  summary: 'A parked id admits a different body as a fresh cycle (READY, attempts 0, resend epoch + 1).',
  admit: admitFreshCycleWhen(failClosed, (record) => record.status === 'PARKED'),
});

export default freshCycle;
