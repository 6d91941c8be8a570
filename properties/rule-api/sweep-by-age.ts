/**
 * Item "retention beyond DELIVERED records" (docs/rules.md, 'Retention'): an
 * outbox cleanup by age whatever the status, `DELETE FROM outbox WHERE
 * created_at < now() - interval`. fail-closed, but `admit` stamps the time a
 * record was written (`writtenAt`, the clock), and the retention sweeper
 * deletes (no tombstone) any record older than {@link SWEEP_AGE} ticks: a
 * record still pending, or parked, goes with the delivered ones. Found
 * only where time passes (a world with a clock and long waits).
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import type { OutboxRecord } from '../../model/types.ts';

/** Ticks after its writing past which a record is swept, whatever its status (a day in milliseconds). */
export const SWEEP_AGE = 86_400_000;

/** When the record was written (by `admit`); absent: never stamped. */
export function writtenAt(record: OutboxRecord): number | null {
  return typeof record.writtenAt === 'number' ? record.writtenAt : null;
}

const sweepByAge: RuleSet = extendRules(failClosed, {
  name: 'sweep-by-age',
  summary: `fail-closed, but the retention sweeper deletes every record written more than ${SWEEP_AGE} ticks ago, whatever its status.`,
  retention: 'delete',
  admit(view) {
    const a = failClosed.admit(view);
    return a.kind === 'write' ? { kind: 'write', record: { ...a.record, writtenAt: view.now } } : a;
  },
  sweepable: (record, view) => {
    const at = writtenAt(record);
    return at !== null && view.now - at > SWEEP_AGE;
  },
});

export default sweepByAge;
