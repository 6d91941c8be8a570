/**
 * fail-closed with a guard against a poison item, as relays add: an id
 * requeued more than 15 times is no longer selected. Its record stays READY
 * and its file live, with no park and nothing telling the operator why
 * (settled-after-healing). No bounded world requeues an id 15 times (the
 * swarm's operator budget is 12 at most): deep cycles take a cycle with a
 * requeue 40 more times, then stop faults (docs/properties.md, 'Long life').
 * `requeue-cap-parks.ts` parks the item at the cap instead: clean.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** Requeues after which an id is treated as poison. */
export const REQUEUES_CAP = 15;

const requeueCapStrands: RuleSet = extendRules(failClosed, {
  name: 'requeue-cap-strands',
  summary: `fail-closed that stops selecting an id requeued more than ${REQUEUES_CAP} times (left READY).`,
  selectable: (record, view) => record.resendEpoch <= REQUEUES_CAP && (failClosed.selectable?.(record, view) ?? true),
});

export default requeueCapStrands;
