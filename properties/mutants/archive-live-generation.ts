/**
 * Mistake: disposal does not bind to the generation this pass read; it
 * archives whatever file is live at the path now. When the producer replaced
 * the file during the send, the new body is archived as delivered.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-archive-live-generation',
  summary: 'Disposal ignores the file generation: the file live at the path now is archived or quarantined.',
  dispose(view) {
    const live = view.live;
    if (live === null) return { kind: 'leave' };
    // The path is the same, so the live file is taken for the one this pass read.
    const d = failClosed.dispose({ ...view, file: { ...view.file, generation: live.generation } });
    return d.kind === 'leave' ? d : { ...d, file: live };
  },
});

export default mutant;
