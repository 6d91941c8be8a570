/**
 * Mistake: every completion appends an audit entry to the record itself, so
 * the record grows with every attempt and every cycle instead of staying
 * under a bound.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import type { OutboxRecord } from '../../model/types.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

/** One audit entry as the mutant writes it. */
interface LogEntry {
  epoch: number;
  attempt: number;
  outcome: string;
}

function logOf(record: OutboxRecord): LogEntry[] {
  return Array.isArray(record.log) ? (record.log as LogEntry[]) : [];
}

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-attempt-log',
  summary: 'Each completion appends { epoch, attempt, outcome } to a log kept in the record.',
  complete(record, outcome, limits, view) {
    const entry: LogEntry = { epoch: record.resendEpoch, attempt: record.attempts + 1, outcome };
    return failClosed.complete(record, outcome, limits, view).map((r) => ({ ...r, log: [...logOf(record), entry] }));
  },
});

export default mutant;
