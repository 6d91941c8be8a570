/**
 * Mistake: the gateway archives a file once this pass POSTed its body,
 * without looking at how the reply was classified.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-archive-when-sent',
  summary: 'Archives the file read once this pass POSTed its body, whatever the outcome.',
  dispose(view) {
    const { file, live, sent } = view;
    const sameGeneration = live !== null && live.generation === file.generation;
    if (sameGeneration && sent !== null && sent.body === file.body) return { kind: 'archive', file };
    return failClosed.dispose(view);
  },
});

export default mutant;
