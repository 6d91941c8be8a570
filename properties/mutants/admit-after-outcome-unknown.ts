/**
 * Mistake: an id parked `outcome-unknown` admits a different body as a fresh
 * cycle ("nobody knows what happened to the old body, so let the new one
 * through"). The old body may be stored with its reply lost; a broker that
 * dedupes by id then answers the new POST as a duplicate success.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';
import { admitFreshCycleWhen } from '../../model/catalog/fresh-cycle-when.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-admit-after-outcome-unknown',
  summary: 'Admits a different body for an id parked outcome-unknown as a fresh cycle (READY, attempts 0, resend epoch + 1).',
  admit: admitFreshCycleWhen(failClosed, (record) => record.status === 'PARKED' && record.reason === 'outcome-unknown'),
});

export default mutant;
