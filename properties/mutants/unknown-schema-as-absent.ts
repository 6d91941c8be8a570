/**
 * Mistake: a record written by a newer schema is rebuilt from nothing, as if
 * absent, by an engine that does not understand it. Its status, payload and
 * unknown fields are dropped.
 */
import { freshRecord } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-unknown-schema-as-absent',
  summary: 'A record of a newer schema is rebuilt from nothing as a new READY record for the file body.',
  admit(view) {
    if (view.read.kind === 'unknown-version') return { kind: 'write', record: freshRecord(view.body, 0) };
    return failClosed.admit(view);
  },
});

export default mutant;
