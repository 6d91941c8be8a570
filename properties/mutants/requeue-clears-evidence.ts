/**
 * Mistake: an operator's requeue (or resubmit of a READY record) "starts the
 * cycle clean" and clears the evidence flags, `inFlight` and `unknownSeen`,
 * with the park reason. A POST an engine made before it crashed may have
 * stored the body; with its mark gone, the next attempt's pre-send write
 * finds no earlier attempt, and a refusal of the resend (a 409 from an
 * id-409 broker holding the first copy) parks `permanent-refusal` over a
 * body the broker holds (honest-park). fail-closed keeps both.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-requeue-clears-evidence',
  summary: 'A requeue or resubmit clears unknownSeen and inFlight along with the park reason.',
  requeue: (record, resetAttempts, view) => ({ ...failClosed.requeue(record, resetAttempts, view), unknownSeen: false, inFlight: false }),
});

export default mutant;
