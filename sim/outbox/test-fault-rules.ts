/**
 * Test helper: a rule set whose decision breaks only where a run has gone
 * on past a first attempt, met first in the explorer's cycle search once
 * faults stop (sim/outbox/fault-trace.test.ts, sim/cli/rule-fault.test.ts).
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { guardRules } from '../../model/rule-contract.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** fail-closed, guarded, whose `selectable` throws for a record attempted once. */
export function attemptedRules(): RuleSet {
  return guardRules(
    extendRules(failClosed, {
      name: 'attempted',
      summary: '',
      selectable: (record, view) => {
        if ((record.attempts ?? 0) >= 1) throw new Error(`attempted ${record.attempts}`);
        return failClosed.selectable?.(record, view) ?? true;
      },
    }),
  );
}
