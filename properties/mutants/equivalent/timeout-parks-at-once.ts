/**
 * Candidate mistake: a timeout parks the record `outcome-unknown` at once
 * ("a human must look"), with no retry. Survives (equivalent under the
 * properties): `outcome-unknown` claims nothing about the broker, so the
 * park is honest whether the POST was stored or not, and the file is
 * quarantined as fail-closed quarantines any parked body.
 */
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import failClosed from '../../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-timeout-parks-at-once',
  summary: 'A timeout parks the record outcome-unknown at once, without a retry.',
  complete: (record, outcome, limits, view) =>
    outcome === 'indeterminate' ? [{ ...record, status: 'PARKED', reason: 'outcome-unknown', inFlight: false, unknownSeen: true }] : failClosed.complete(record, outcome, limits, view),
});

export default mutant;
