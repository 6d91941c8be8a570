/**
 * fail-closed whose operator requeue appends the new resend epoch to a list
 * in the record (`requeues`), for the operator to see how often an id came
 * back: two or three bytes a cycle, with no cap. The world's operator
 * budgets give an id a dozen cycles at most, far below the 256-byte bound;
 * long life sends a grown cycle round again until the record passes it
 * (bounded-record). `epoch-history-last.ts` keeps the last three: clean.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** fail-closed's `requeue`, appending the new epoch to `requeues`, keeping the last `keep` (`Infinity`: all). */
export function requeueWithHistory(keep: number): RuleSet['requeue'] {
  return (record, reset, view) => {
    const r = failClosed.requeue(record, reset, view);
    const seen = Array.isArray(record.requeues) ? record.requeues : [];
    const requeues = [...seen, r.resendEpoch];
    return { ...r, requeues: requeues.slice(Math.max(0, requeues.length - keep)) };
  };
}

const epochHistory: RuleSet = extendRules(failClosed, {
  name: 'epoch-history',
  summary: 'fail-closed appending each requeue\'s epoch to a list in the record, never trimmed.',
  requeue: requeueWithHistory(Infinity),
});

export default epochHistory;
