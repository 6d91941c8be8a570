/**
 * A rule set that alters payloads itself: fail-closed, but the record it
 * writes for a new body holds the body in lower case ("normalised" on the
 * way in), its digest computed from what it stores. Every record, envelope
 * and delivery agrees with the broker, so no-phantom-delivery and
 * no-silent-loss are silent (the body that reached the outbox is the
 * lower-case one, and the file, matched to no record, is quarantined);
 * delivered-as-written compares the broker with what the producer wrote
 * for the id and finds it.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { digestOf } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const payloadLowercased: RuleSet = extendRules(failClosed, {
  name: 'payload-lowercased',
  summary: 'fail-closed, but it stores (and so sends) every new body in lower case.',
  admit(view) {
    const a = failClosed.admit(view);
    if (a.kind !== 'write') return a;
    const payload = a.record.payload.toLowerCase();
    return { kind: 'write', record: { ...a.record, payload, digest: digestOf(payload) } };
  },
});

export default payloadLowercased;
