/**
 * Mistake: a newer body for an id whose record is still READY replaces the
 * queued payload in place ("the latest result supersedes the pending one").
 * An earlier attempt may already have stored the old body, and the old body's
 * file is gone once the producer replaced it.
 */
import { digestOf } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-admit-supersedes-ready',
  summary: 'A different body for a READY record overwrites its payload in place (same epoch and attempts).',
  admit(view) {
    const { read, body } = view;
    if (read.kind === 'found' && read.record.status === 'READY' && read.record.payload !== body) {
      return { kind: 'write', record: { ...read.record, payload: body, digest: digestOf(body) } };
    }
    return failClosed.admit(view);
  },
});

export default mutant;
