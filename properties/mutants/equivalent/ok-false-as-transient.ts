/**
 * Candidate mistake: a 200 whose body says `ok: false` retried as
 * transient. Survives (equivalent under the properties): the broker
 * declined that POST and stored nothing, so retrying it is safe, and the
 * cap parks `max-attempts` only when no attempt's outcome was unknown.
 */
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import failClosed from '../../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-ok-false-as-transient',
  summary: 'A 200 with ok: false is retried as transient.',
  classify: (reply) => (reply === 'ok-false' ? 'transient' : failClosed.classify(reply)),
});

export default mutant;
