/**
 * Mistake: a legacy record (written before the counters existed) is
 * "migrated" by rebuilding it from the file being published, whatever its
 * status and payload.
 */
import { freshRecord } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-legacy-rebuilt',
  summary: 'A legacy record is migrated by rebuilding it as a new READY record for the file body.',
  admit(view) {
    if (view.read.kind === 'found' && view.read.legacy) return { kind: 'write', record: freshRecord(view.body, 0) };
    return failClosed.admit(view);
  },
});

export default mutant;
