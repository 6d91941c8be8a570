/**
 * Mistake: an id parked `max-attempts` admits a different body as a fresh
 * cycle, reasoning that every attempt failed transiently so nothing was
 * stored. A crash after the broker received the POST stores the body without
 * counting an attempt, and a requeue forgets earlier lost replies.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';
import { admitFreshCycleWhen } from '../../model/catalog/fresh-cycle-when.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-admit-after-max-attempts',
  summary: 'Admits a different body for an id parked max-attempts as a fresh cycle (only transient failures were counted).',
  admit: admitFreshCycleWhen(failClosed, (record) => record.status === 'PARKED' && record.reason === 'max-attempts'),
});

export default mutant;
