/**
 * Candidate mistake: a 409 retried as transient, like a 503. Survives
 * (equivalent under the properties): a 409 comes only from a broker that
 * holds a copy for the id, and that copy was stored by a POST whose outcome
 * the record already marks as unknown (the pre-send write sets `inFlight`,
 * and an earlier lost reply or crash sets `unknownSeen`), so the cap's park
 * says `outcome-unknown`, never `max-attempts`.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-conflict-as-transient',
  summary: 'A 409 is retried as transient (like a 503).',
  classify: (reply) => (reply === 'conflict-409' ? 'transient' : failClosed.classify(reply)),
});

export default mutant;
