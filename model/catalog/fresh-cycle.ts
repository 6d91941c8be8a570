/**
 * fresh-cycle: a parked id admits a different body as a fresh cycle (READY,
 * attempts 0, resend epoch + 1). Everything else is fail-closed.
 * Known to break no-phantom-delivery under a broker that dedupes by id.
 */
import { freshRecord } from '../record.ts';
import { extendRules, type RuleSet } from '../rules.ts';
import failClosed from './fail-closed.ts';

const freshCycle: RuleSet = extendRules(failClosed, {
  name: 'fresh-cycle',
  summary: 'A parked id admits a different body as a fresh cycle (READY, attempts 0, resend epoch + 1).',
  admit(view) {
    const { read, body } = view;
    if (read.kind === 'found' && read.record.status === 'PARKED' && read.record.payload !== body) {
      return { kind: 'write', record: freshRecord(body, read.record.resendEpoch + 1) };
    }
    return failClosed.admit(view);
  },
});

export default freshCycle;
