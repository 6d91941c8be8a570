/**
 * The older release that marks an attempt in flight by the record's status:
 * the rule set beside which a check runs an upgrade, whose pre-send write
 * also sets the status QUEUED (as some relays mark a record they are
 * sending), everything else as it decides. A world of the setting
 * `oldWritesQueued` (events/process.ts) runs its old-version engines on it
 * (docs/rules.md, 'Record status').
 *
 * Why: QUEUED is in the rule API for such releases, and fail-closed never
 * writes it. A new release that reads a QUEUED record as an abandoned send
 * (and rebuilds it as a fresh cycle of a newer body) meets one only beside
 * a release that writes it; a check with the catalog rule set as the old
 * version had no such record, said "not asked: QUEUED", and passed a rule
 * set that a rolling upgrade off such a release breaks (a blind review's).
 */
import type { RuleSet } from '../../model/rules.ts';

const made = new WeakMap<RuleSet, RuleSet>();

/** `rules` with its pre-send write of a READY record writing it QUEUED; one object per rule set (steppers are built per rule set). */
export function queuedRelease(rules: RuleSet): RuleSet {
  let out = made.get(rules);
  if (out === undefined) {
    out = {
      ...rules,
      preSend: (record, view) => {
        const written = rules.preSend(record, view);
        return written !== null && written.status === 'READY' ? { ...written, status: 'QUEUED' } : written;
      },
    };
    made.set(rules, out);
  }
  return out;
}
