/**
 * Mistake: a definite-refusal park judged by its reason and its counter: when
 * the very first counted attempt was refused, "nothing was ever stored", so a
 * different body is admitted as a fresh cycle. Uncounted POSTs (a crash after
 * the broker received one) and requeues that reset the counter make that
 * false.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';
import { admitFreshCycleWhen } from '../../model/catalog/fresh-cycle-when.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-admit-after-first-refusal',
  summary: 'Admits a different body for an id parked permanent-refusal with attempts 0 as a fresh cycle.',
  admit: admitFreshCycleWhen(failClosed, (record) => record.status === 'PARKED' && record.reason === 'permanent-refusal' && record.attempts === 0),
});

export default mutant;
