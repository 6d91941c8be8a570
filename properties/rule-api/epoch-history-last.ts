/**
 * `epoch-history.ts` keeping only the last three epochs in `requeues`: the
 * record grows for three cycles, then by a digit now and then. Long life
 * sends its grown cycles round until they stop growing: clean.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { requeueWithHistory } from './epoch-history.ts';

const epochHistoryLast: RuleSet = extendRules(failClosed, {
  name: 'epoch-history-last',
  summary: 'fail-closed keeping the epochs of the last three requeues in the record.',
  requeue: requeueWithHistory(3),
});

export default epochHistoryLast;
