/**
 * Mistake: an operator's requeue makes the record READY again but keeps its
 * resend epoch, so the new cycle reuses the old idempotency key.
 */
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import failClosed from '../../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-requeue-keeps-epoch',
  summary: 'Requeue makes the record READY under the same resend epoch (same idempotency key).',
  requeue: (record, resetAttempts, view) => ({ ...failClosed.requeue(record, resetAttempts, view), resendEpoch: record.resendEpoch }),
});

export default mutant;
