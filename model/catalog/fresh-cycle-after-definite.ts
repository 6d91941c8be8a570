/**
 * fresh-cycle-after-definite: a parked id admits a different body as a fresh
 * cycle only when the park was a definite refusal, judged by the last attempt.
 * Known to break when an earlier attempt stored the body with its reply lost
 * and a later attempt got a 409.
 */
import { freshRecord } from '../record.ts';
import { extendRules, type RuleSet } from '../rules.ts';
import failClosed from './fail-closed.ts';

const freshCycleAfterDefinite: RuleSet = extendRules(failClosed, {
  name: 'fresh-cycle-after-definite',
  summary: 'A parked id admits a different body as a fresh cycle only when the last attempt was a definite refusal.',
  admit(view) {
    const { read, body } = view;
    if (
      read.kind === 'found' &&
      read.record.status === 'PARKED' &&
      read.record.reason === 'permanent-refusal' &&
      read.record.payload !== body
    ) {
      return { kind: 'write', record: freshRecord(body, read.record.resendEpoch + 1) };
    }
    return failClosed.admit(view);
  },
});

export default freshCycleAfterDefinite;
