/**
 * Mistake: the pre-send write is dropped to save a durable write per
 * attempt (`preSend` returns null), so nothing marks a POST about to be
 * made. An engine that crashes during its POST leaves no trace of it; the
 * engine that takes the record over sends again, and a refusal of that
 * retry (a 409 from an id-409 broker holding the first copy) parks
 * `permanent-refusal` over a body the broker holds (honest-park).
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-no-pre-send-write',
  summary: 'No pre-send write: nothing records that a POST was about to be made.',
  preSend: () => null,
});

export default mutant;
