/**
 * Mistake: a record that cannot be parsed is treated as absent, and publish
 * writes a new record for the file's body over it. Whatever the torn record
 * held (a delivered or parked body) is forgotten.
 */
import { freshRecord } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-corrupt-as-absent',
  summary: 'A corrupt record is treated as absent: publish writes a new READY record over it.',
  admit(view) {
    if (view.read.kind === 'corrupt') return { kind: 'write', record: freshRecord(view.body, 0) };
    return failClosed.admit(view);
  },
});

export default mutant;
