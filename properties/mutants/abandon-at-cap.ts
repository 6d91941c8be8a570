/**
 * Mistake: an item that reaches its attempts limit is parked, but its file
 * is abandoned where it is: left live instead of moved to `undelivered/`
 * with the park's cause. Nothing is delivered, nothing is retried, and the
 * operator is never told; every later pass skips the file again.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-abandon-at-cap',
  summary: 'A file whose record parked at the attempts limit is left live (not quarantined): abandoned after the retry cap.',
  admit(view) {
    const { read, body } = view;
    const a = failClosed.admit(view);
    const atCap = read.kind === 'found' && read.record.status === 'PARKED' && read.record.reason === 'max-attempts' && read.record.payload === body;
    return a.kind === 'quarantine' && atCap ? { kind: 'leave' } : a;
  },
  dispose(view) {
    const d = failClosed.dispose(view);
    const record = view.read.kind === 'found' ? view.read.record : null;
    return d.kind === 'quarantine' && record?.status === 'PARKED' && record.reason === 'max-attempts' ? { kind: 'leave' } : d;
  },
});

export default mutant;
