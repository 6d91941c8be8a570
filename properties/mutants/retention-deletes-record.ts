/**
 * Mistake: the retention sweeper deletes fail-closed's DELIVERED records
 * outright (no tombstone). The record was the outbox's only memory that the
 * id was delivered: a later body, or a quarantined file an operator replays,
 * reads the id as absent and is sent as new, and a broker that dedupes by id
 * answers success for a body it never stored (NServiceBus: outbox retention
 * expired, a message retried from the error queue executed again). Caught
 * only in worlds where the sweeper runs.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-retention-deletes-record',
  summary: 'Lets the retention sweeper delete DELIVERED records instead of leaving a tombstone.',
  retention: 'delete',
});

export default mutant;
