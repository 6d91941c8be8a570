/**
 * fail-closed that saves the pre-send write on a record requeued 10 times
 * or more ("a record retried that often is a known slow one"). Then a POST
 * made in a crash leaves no mark, the engine that takes the record over
 * sends again, and a refusal of that retry parks `permanent-refusal` over a
 * body the broker holds (honest-park). No bounded world requeues a record
 * 10 times, and the crash must come after: deep cycles find it in a tail
 * that keeps faults on after their rounds (docs/properties.md, 'Long life').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** The resend epoch from which the pre-send write is skipped. */
export const SKIP_FROM_EPOCH = 10;

const presendSkippedLate: RuleSet = extendRules(failClosed, {
  name: 'presend-skipped-late',
  summary: `fail-closed that skips the pre-send write once a record's resend epoch is ${SKIP_FROM_EPOCH} or more.`,
  preSend: (record, view) => (record.resendEpoch >= SKIP_FROM_EPOCH ? null : failClosed.preSend(record, view)),
});

export default presendSkippedLate;
