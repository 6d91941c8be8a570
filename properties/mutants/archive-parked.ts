/**
 * Mistake: a file whose record reached a final state is archived ("done with
 * it"), including when the final state is PARKED. To the user an archived
 * file is a delivered one.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-archive-parked',
  summary: 'A file whose record is PARKED with its body is archived instead of quarantined.',
  dispose(view) {
    const d = failClosed.dispose(view);
    return d.kind === 'quarantine' ? { kind: 'archive', file: d.file } : d;
  },
});

export default mutant;
