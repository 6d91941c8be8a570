/**
 * Candidate mistake: a 409 read as indeterminate ("a conflict means we do
 * not know"), so it counts an attempt and is retried like a timeout.
 * Survives (equivalent under the properties): it sets `unknownSeen`, so the
 * cap parks `outcome-unknown`, which claims nothing about the broker, and a
 * retry is an ordinary attempt. Slower to park, never dishonest.
 */
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import failClosed from '../../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-conflict-as-indeterminate',
  summary: 'A 409 is read as indeterminate: retried as a timeout is, and parked outcome-unknown at the cap.',
  classify: (reply) => (reply === 'conflict-409' ? 'indeterminate' : failClosed.classify(reply)),
});

export default mutant;
