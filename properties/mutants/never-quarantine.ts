/**
 * Mistake: nothing is ever quarantined. A body that fail-closed would move to
 * `undelivered/` with a named cause is left live instead, and every later
 * pass skips it again: the operator is never told.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-never-quarantine',
  summary: 'Wherever fail-closed quarantines (publish or disposal), the file is left live instead.',
  admit(view) {
    const a = failClosed.admit(view);
    return a.kind === 'quarantine' ? { kind: 'leave' } : a;
  },
  dispose(view) {
    const d = failClosed.dispose(view);
    return d.kind === 'quarantine' ? { kind: 'leave' } : d;
  },
});

export default mutant;
