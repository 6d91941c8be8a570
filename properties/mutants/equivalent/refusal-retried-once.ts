/**
 * Candidate mistake: a first definite refusal is retried once, as a
 * transient failure ("the validator may be flaky"). Survives (equivalent
 * under the properties): a refusal stores nothing, so the retry is an
 * ordinary attempt; a later refusal parks `permanent-refusal` only if no
 * attempt's outcome was unknown, and the cap counts the retry.
 */
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import failClosed from '../../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-refusal-retried-once',
  summary: 'A first definite refusal (no attempt counted yet) is retried as transient.',
  complete: (record, outcome, limits, view) => failClosed.complete(record, outcome === 'definite' && record.attempts === 0 ? 'transient' : outcome, limits, view),
});

export default mutant;
