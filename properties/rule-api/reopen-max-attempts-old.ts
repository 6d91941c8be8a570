/**
 * The version before `reopen-max-attempts.ts`: the same decisions, but its
 * `requeue` clears `unknownSeen` and `inFlight` (as fail-closed's did before
 * it learned to keep `unknownSeen`: docs/rules.md, honest-park). As
 * `--old-rules`, its operator tool can requeue an id whose attempt may have
 * been stored, and the new version then parks it `max-attempts` and reopens it.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import type { RuleSet } from '../../model/rules.ts';
import reopenMaxAttempts from './reopen-max-attempts.ts';

const reopenMaxAttemptsOld: RuleSet = {
  ...reopenMaxAttempts,
  name: 'reopen-max-attempts-old',
  summary: 'reopen-max-attempts with a requeue that clears unknownSeen and inFlight.',
  requeue: (record, resetAttempts, view) => {
    const { unknownSeen: _unknownSeen, ...rest } = failClosed.requeue(record, resetAttempts, view);
    return { ...rest, inFlight: false };
  },
};

export default reopenMaxAttemptsOld;
