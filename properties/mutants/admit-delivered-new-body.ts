/**
 * Mistake: a later, different body for a delivered id is admitted as a new
 * delivery (a fresh cycle under a new resend epoch). The epoch changes the
 * idempotency key, not the broker's result id, so a broker that dedupes by id
 * keeps the first body and answers success.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';
import { admitFreshCycleWhen } from '../../model/catalog/fresh-cycle-when.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-admit-delivered-new-body',
  summary: 'Admits a different body for a DELIVERED id as a fresh cycle (READY, attempts 0, resend epoch + 1).',
  admit: admitFreshCycleWhen(failClosed, (record) => record.status === 'DELIVERED'),
});

export default mutant;
