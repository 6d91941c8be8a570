/**
 * Item "retention beyond DELIVERED records" (docs/rules.md, 'Retention'):
 * fail-closed, but its retention sweeper also takes PARKED records, as a
 * dead set pruned by age or size (Sidekiq's dead set, delayed_job's
 * `destroy_failed_jobs`, Hangfire expiring failed jobs). fail-closed's
 * tombstone keeps the record's status, not its payload: a parked body,
 * which only a person would ever send again, is gone with nothing left for
 * an operator (no-silent-loss). Its operator tool refuses to requeue a
 * record the sweeper emptied (nothing is left to send), as a pruned dead
 * job can no longer be retried.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const sweepParked: RuleSet = extendRules(failClosed, {
  name: 'sweep-parked',
  summary: "fail-closed, but the retention sweeper also takes PARKED records (a dead set pruned), not only DELIVERED ones.",
  sweepable: (record) => record.status === 'DELIVERED' || record.status === 'PARKED',
  // A record without payload is refused (returned unchanged: nothing is written).
  requeue: (record, resetAttempts, view) => (typeof record.payload === 'string' ? failClosed.requeue(record, resetAttempts, view) : record),
});

export default sweepParked;
