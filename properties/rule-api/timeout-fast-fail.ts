/**
 * fail-closed with a circuit breaker's reasoning: once a record has 8
 * counted attempts the client's breaker is open, so a timeout is its
 * fast-fail and nothing was sent; complete takes it as transient. A lost
 * reply looks the same, and the record then parks `max-attempts` over a
 * body the broker holds (honest-park). No bounded world gives a record 8
 * attempts: deep cycles reach it, taking the cycle that counts attempts up
 * and then keeping faults on (docs/properties.md, 'Long life').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** Counted attempts after which a timeout is taken for the breaker's fast-fail. */
export const BREAKER_ATTEMPTS = 8;

const timeoutFastFail: RuleSet = extendRules(failClosed, {
  name: 'timeout-fast-fail',
  summary: `fail-closed that takes a timeout for a transient failure once a record has ${BREAKER_ATTEMPTS} attempts.`,
  complete: (record, outcome, limits, view) =>
    failClosed.complete(record, outcome === 'indeterminate' && record.attempts >= BREAKER_ATTEMPTS ? 'transient' : outcome, limits, view),
});

export default timeoutFastFail;
