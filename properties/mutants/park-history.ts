/**
 * Mistake: every park appends { epoch, reason, attempts } to a history kept
 * in the record, so the record grows by one entry per cycle an id goes
 * through (park, requeue, park, ...).
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import type { OutboxRecord } from '../../model/types.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

/** One history entry as the mutant writes it. */
interface ParkEntry {
  epoch: number;
  reason: string;
  attempts: number;
}

function historyOf(record: OutboxRecord): ParkEntry[] {
  return Array.isArray(record.parks) ? (record.parks as ParkEntry[]) : [];
}

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-park-history',
  summary: 'Each park appends { epoch, reason, attempts } to a history kept in the record.',
  complete(record, outcome, limits, view) {
    return failClosed.complete(record, outcome, limits, view).map((r) =>
      r.status === 'PARKED'
        ? { ...r, parks: [...historyOf(record), { epoch: r.resendEpoch, reason: r.reason ?? 'unknown', attempts: r.attempts }] }
        : r,
    );
  },
});

export default mutant;
