/**
 * Mistake: a later, different body for a delivered id is admitted as a new
 * delivery (a fresh cycle under a new resend epoch). The epoch changes the
 * idempotency key, not the broker's result id, so a broker that dedupes by id
 * keeps the first body and answers success.
 */
import { freshRecord } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-admit-delivered-new-body',
  summary: 'Admits a different body for a DELIVERED id as a fresh cycle (READY, attempts 0, resend epoch + 1).',
  admit(view) {
    const { read, body } = view;
    if (read.kind === 'found' && read.record.status === 'DELIVERED' && read.record.payload !== body) {
      return { kind: 'write', record: freshRecord(body, read.record.resendEpoch + 1) };
    }
    return failClosed.admit(view);
  },
});

export default mutant;
