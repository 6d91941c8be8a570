/**
 * Item "operator actions run with the rules of the engine that executes
 * them" (docs/rules.md, 'Operator actions'): fail-closed, but an id parked
 * `max-attempts` admits a different body as a fresh cycle. That is safe only
 * if no attempt of a `max-attempts` park may have been stored, so the rule
 * keeps the evidence: `unknownSeen` is set by an indeterminate reply or by a
 * pre-send write that finds the last attempt never completed (`inFlight`
 * still set: the engine died mid-attempt), and its `requeue` (requeue or
 * resubmit alike) keeps both flags.
 *
 * Under version skew the operator's tool on an old node runs the old
 * version's `requeue` (`reopen-max-attempts-old.ts`), which clears them as
 * fail-closed does; the tool finds the phantom delivery that follows.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { freshRecord } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const reopenMaxAttempts: RuleSet = extendRules(failClosed, {
  name: 'reopen-max-attempts',
  summary: 'fail-closed, but an id parked max-attempts (no attempt possibly stored) admits a different body as a fresh cycle.',
  admit(view) {
    const { read, body } = view;
    if (read.kind === 'found' && read.record.status === 'PARKED' && read.record.reason === 'max-attempts' && read.record.payload !== body) {
      return { kind: 'write', record: freshRecord(body, read.record.resendEpoch + 1) };
    }
    return failClosed.admit(view);
  },
  preSend: (record) => ({ ...record, inFlight: true, unknownSeen: record.unknownSeen === true || record.inFlight === true }),
  requeue(record, resetAttempts) {
    const { reason: _reason, ...rest } = record;
    return { ...rest, status: 'READY', resendEpoch: record.resendEpoch + 1, attempts: resetAttempts ? 0 : record.attempts };
  },
});

export default reopenMaxAttempts;
