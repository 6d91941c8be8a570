/**
 * Item "time", a window longer than a few ticks (docs/rules.md, 'Time'):
 * fail-closed, but the sign that an earlier POST may have stored the body
 * (`unknownSeen`) is forgotten once it is `EXPIRY` ticks old ("had that POST
 * been stored, we would have heard by now"). A later refusal then parks
 * permanent-refusal, and the cap max-attempts, over a body the broker holds:
 * honest-park. Time does not un-store a body.
 *
 * Written by an audit of the tool as a flaw nobody had written (it was not
 * tuned to): while time passed a tick at a time and the clock stopped at
 * tick 64, no world could let 80 ticks pass between two attempts, and the
 * check was clean. A long wait (docs/faults.md, `long-wait`) lets it.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import type { OutboxRecord } from '../../model/types.ts';

/** Ticks after which the sign of a possibly stored body is forgotten: past the clock's old horizon (64). */
export const EXPIRY = 80;

/** `after` stamped with the tick at which it first noted a possibly stored body. */
function stamped(before: OutboxRecord, after: OutboxRecord, now: number): OutboxRecord {
  return after.unknownSeen === true && before.unknownSeen !== true ? { ...after, unknownAt: now } : after;
}

const evidenceExpires: RuleSet = extendRules(failClosed, {
  name: 'evidence-expires',
  summary: `fail-closed, but an unknown outcome older than ${EXPIRY} ticks no longer counts as a sign that the body was stored.`,
  preSend(record, view) {
    const out = failClosed.preSend(record, view);
    return out === null ? null : stamped(record, out, view?.now ?? 0);
  },
  complete(record, outcome, limits, view) {
    const now = view?.now ?? 0;
    const at = record.unknownAt;
    if (record.unknownSeen === true && typeof at === 'number' && now - at >= EXPIRY) {
      const { unknownAt: _forgotten, ...rest } = record;
      return failClosed.complete({ ...rest, unknownSeen: false }, outcome, limits, view);
    }
    return failClosed.complete(record, outcome, limits, view).map((r) => stamped(record, r, now));
  },
});

export default evidenceExpires;
