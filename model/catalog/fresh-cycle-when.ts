/**
 * The one shape every "fresh cycle" rule shares: when an id's record reads
 * intact and `reopens` says so, a different body is admitted as a fresh
 * cycle (the record rebuilt from nothing: READY, attempts 0, resend epoch
 * + 1, the base's declared fields at their defaults); otherwise the base rule set decides. Rules and mutants differ only
 * in `reopens`.
 */
import { freshRecordOf } from '../record.ts';
import { schemaOf } from '../schema.ts';
import type { RuleDecisions, RuleSet } from '../rules.ts';
import type { OutboxRecord } from '../types.ts';

/** An `admit` decision that reopens a record for a different body when `reopens(record)` holds. */
export function admitFreshCycleWhen(base: RuleSet, reopens: (record: OutboxRecord) => boolean): RuleDecisions['admit'] {
  return (view) => {
    const { read, body } = view;
    if (read.kind === 'found' && read.record.payload !== body && reopens(read.record)) {
      // Every field the base declares written at its default: absent would read as lost (fail-closed's flags).
      return { kind: 'write', record: freshRecordOf(schemaOf(base), body, read.record.resendEpoch + 1) };
    }
    return base.admit(view);
  };
}
