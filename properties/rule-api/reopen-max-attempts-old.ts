/**
 * The version before `reopen-max-attempts.ts`: the same decisions, but its
 * `requeue` is fail-closed's, which clears `unknownSeen` and `inFlight`. As
 * `--old-rules`, its operator tool can requeue an id whose attempt may have
 * been stored, and the new version then parks it `max-attempts` and reopens it.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import type { RuleSet } from '../../model/rules.ts';
import reopenMaxAttempts from './reopen-max-attempts.ts';

const reopenMaxAttemptsOld: RuleSet = {
  ...reopenMaxAttempts,
  name: 'reopen-max-attempts-old',
  summary: 'reopen-max-attempts with fail-closed\'s requeue, which clears unknownSeen and inFlight.',
  requeue: (record, resetAttempts, view) => ({ ...failClosed.requeue(record, resetAttempts, view), inFlight: false }),
};

export default reopenMaxAttemptsOld;
