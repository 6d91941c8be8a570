/**
 * Item "a stored payload altered but still readable" (docs/faults.md,
 * `alter-payload`): fail-closed without its digest check before it sends.
 *
 * Mistake: it selects every pending record, whether or not its payload is
 * the body its digest names, so a payload the store altered (a truncating
 * column, a charset conversion) is POSTed and reported delivered, and the
 * body the producer wrote is gone. The record and the broker agree, so
 * no-phantom-delivery is silent; delivered-as-written compares the broker
 * with the producer and finds it.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const payloadTrusted: RuleSet = extendRules(failClosed, {
  name: 'payload-trusted',
  summary: 'fail-closed, but it sends a pending record whatever its digest says: an altered payload is delivered.',
  selectable: () => true,
});

export default payloadTrusted;
