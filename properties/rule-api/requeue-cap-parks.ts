/**
 * `requeue-cap-strands.ts` done right: an id requeued more than 15 times is
 * parked again at once by the requeue (`max-attempts` is not claimed: the
 * reason says only that the operator's retries ran out, `outcome-unknown`),
 * so the operator sees it. Clean, deep cycles included.
 *
 * Only a requeue parks it, never a resubmit. The first version parked on
 * either action, and a resubmit comes while an engine may hold the claim,
 * its POST already built: the body went out after its record said PARKED
 * (parked-stays-parked). Deep cycles found it once they took the cycle that
 * counts the epoch up and kept faults on after their rounds
 * (docs/properties.md, 'Long life').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { REQUEUES_CAP } from './requeue-cap-strands.ts';

const requeueCapParks: RuleSet = extendRules(failClosed, {
  name: 'requeue-cap-parks',
  summary: `fail-closed whose requeue parks an id requeued more than ${REQUEUES_CAP} times.`,
  requeue: (record, reset, view) => {
    const r = failClosed.requeue(record, reset, view);
    return view?.action === 'requeue' && r.resendEpoch > REQUEUES_CAP ? { ...r, status: 'PARKED', reason: 'outcome-unknown' } : r;
  },
});

export default requeueCapParks;
