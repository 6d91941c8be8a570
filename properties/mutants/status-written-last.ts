/**
 * Mistake: completion takes two writes: first the counters with the in-flight
 * flag cleared, then the status (and park reason). A crash between them
 * leaves a READY record, not in flight, whose outcome was never written.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import type { OutboxRecord } from '../../model/types.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-status-written-last',
  summary: 'Completion writes counters and clears the in-flight flag first, and the status in a second write.',
  complete(record, outcome, limits, view) {
    return failClosed.complete(record, outcome, limits, view).flatMap((final): OutboxRecord[] => {
      const { reason: _reason, ...counters } = final;
      const first: OutboxRecord = { ...counters, status: record.status, ...(record.reason !== undefined ? { reason: record.reason } : {}) };
      return [first, final];
    });
  },
});

export default mutant;
