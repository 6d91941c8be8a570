/**
 * fail-closed with a cleanup job: `DELETE FROM outbox WHERE status =
 * 'DELIVERED' AND delivered_at < now() - interval '2 days'`, without a
 * tombstone ("nobody sends a result again after two days"). `complete`
 * stamps `deliveredAt`. Once the record is gone, a newer body for the id
 * reads as absent and is admitted as new; a broker deduping by id answers
 * it as a duplicate, and the record says DELIVERED for a body the broker
 * does not hold (no-phantom-delivery). Needs a clock, retention and a wait
 * of two days after a delivery in one world: `check` finds the wait by
 * probing the decisions' clock (docs/properties.md, 'Long life').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** How long after its delivery a record is deleted, in milliseconds (ticks). */
export const KEEP_FOR = 2 * 86_400_000;

const retentionAfterDays: RuleSet = extendRules(failClosed, {
  name: 'retention-after-days',
  summary: 'fail-closed whose retention deletes a DELIVERED record two days after its delivery, without a tombstone.',
  retention: 'delete',
  complete: (record, outcome, limits, view) => failClosed.complete(record, outcome, limits, view).map((r) => (r.status === 'DELIVERED' ? { ...r, deliveredAt: view?.now ?? 0 } : r)),
  sweepable: (record, view) => record.status === 'DELIVERED' && typeof record.deliveredAt === 'number' && view.now - record.deliveredAt >= KEEP_FOR,
});
export default retentionAfterDays;
