/**
 * Item "the envelope and keys" under version skew, after an operator's
 * action (docs/properties.md, 'retries-deduped'): fail-closed, but a
 * requeued cycle's key is marked, `<id>#<epoch>#rq`, so that the broker's
 * logs tell operator retries apart; epoch 0 keeps fail-closed's `<id>#0`.
 *
 * Alone it is as safe as fail-closed: one key per id and epoch. Beside
 * fail-closed (a rolling deploy), once an operator requeues, the two
 * versions key one cycle differently: an old engine's POST stored under
 * `a#1` (its reply lost, or the engine crashed in the POST) is retried by a
 * new engine under `a#1#rq`, and a broker deduping by key stores the body
 * again. Only an operator's action makes an epoch above 0, so a world
 * without one cannot show it.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const keyMarksRequeue: RuleSet = extendRules(failClosed, {
  name: 'key-marks-requeue',
  summary: 'The key of a requeued cycle is <id>#<resend_epoch>#rq (epoch 0 keeps <id>#0): safe alone, not beside fail-closed once an operator requeues.',
  envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: record.resendEpoch === 0 ? `${id}#0` : `${id}#${record.resendEpoch}#rq` }),
});

export default keyMarksRequeue;
