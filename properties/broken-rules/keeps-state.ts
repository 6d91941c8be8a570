/**
 * Broken on purpose: decisions keep state between calls (see ../broken-rules.test.ts).
 * fresh-cycle's flaw (a parked id takes a new body) "fixed" by remembering
 * quarantined ids in a module-level set: in production the set is gone after
 * a restart; in a checker it would outlive every crash and every seed.
 */
import { extendRules, freshCycle } from 'outbox-sim';

const quarantined = new Set<string>();

export default extendRules(freshCycle, {
  name: 'keeps-state',
  summary: 'remembers quarantined ids in a module-level set',
  admit(view) {
    if (quarantined.has(view.id)) return { kind: 'leave' };
    return freshCycle.admit(view);
  },
  dispose(view) {
    const d = freshCycle.dispose(view);
    if (d.kind === 'quarantine') quarantined.add(view.file.id);
    return d;
  },
});
