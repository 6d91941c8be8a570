/**
 * Mistake: the gateway archives a file when the outbox confirmed delivery for
 * its id, without comparing the confirmed body with the file's body. A
 * replacement body that waited behind a READY record is archived when the
 * old body is confirmed.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-archive-by-id',
  summary: 'Archives the file read when its id was confirmed or is DELIVERED, whatever body was sent.',
  dispose(view) {
    const { file, live, read, outcome } = view;
    const sameGeneration = live !== null && live.generation === file.generation;
    const delivered = read.kind === 'found' && read.record.status === 'DELIVERED';
    if (sameGeneration && (outcome === 'confirmed' || delivered)) return { kind: 'archive', file };
    return failClosed.dispose(view);
  },
});

export default mutant;
