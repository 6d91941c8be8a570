/**
 * fail-closed whose disposal names a quarantined file's cause from the
 * reply this pass just got, instead of reading the record again ("saves a
 * read per message"): a refused POST sends the file to `undelivered/` as
 * `parked-permanent-refusal`.
 *
 * Mistake: after an earlier attempt stored the body and lost its reply, a
 * 409 to the resend is a refusal of a duplicate. `complete` parks the
 * record honestly (`outcome-unknown`), but the file says permanent
 * refusal, and an operator who reads `undelivered/` publishes again a
 * body the broker holds (honest-park, on the file).
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const quarantineCauseFromReply: RuleSet = extendRules(failClosed, {
  name: 'quarantine-cause-from-reply',
  summary: 'fail-closed, but a refused send quarantines its file as parked-permanent-refusal from the reply alone.',
  dispose(view) {
    const { file, live, sent, outcome } = view;
    const same = live !== null && live.generation === file.generation;
    if (same && outcome === 'definite' && sent !== null && sent.body === file.body) return { kind: 'quarantine', file, cause: 'parked-permanent-refusal' };
    return failClosed.dispose(view);
  },
});

export default quarantineCauseFromReply;
