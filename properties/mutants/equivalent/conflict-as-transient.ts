/**
 * Candidate mistake: a 409 retried as transient, like a 503. Survives
 * (equivalent under the properties): a 409 stores nothing (a refusal, or an
 * id-409 broker's answer to a copy it holds), so a retry is safe. The
 * broker holds a copy of a record still being attempted only through a POST
 * the record already marks as unknown (a crash in it leaves `inFlight` for
 * the next pre-send write; a lost, late or garbled reply sets
 * `unknownSeen`), so the cap parks `max-attempts` only where no POST can
 * have stored the body, and `outcome-unknown` otherwise.
 */
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import failClosed from '../../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-conflict-as-transient',
  summary: 'A 409 is retried as transient (like a 503).',
  classify: (reply) => (reply === 'conflict-409' ? 'transient' : failClosed.classify(reply)),
});

export default mutant;
