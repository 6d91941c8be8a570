/**
 * Mistake: the envelope's result id is built like the idempotency key
 * (`id#resend_epoch`), so the broker files the body under an id nobody
 * reads back, and a new epoch looks like a new result.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-envelope-id-is-key',
  summary: 'The envelope id is the idempotency key id#resend_epoch instead of the task id.',
  envelope: (id, record) => {
    const key = `${id}#${record.resendEpoch}`;
    return { id: key, body: record.payload, key };
  },
});

export default mutant;
