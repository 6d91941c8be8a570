/**
 * Item "every decision knows who decides" (docs/rules.md, 'Who decides'):
 * fail-closed, but each attempt is stamped with the rule set that took it
 * (`takenBy`, from `who.rules`; `takenSchema`, its schema version) and the
 * engine (`takenPid`, from `who.pid`).
 * A body an engine of another version had already attempted is parked for
 * review instead of sent again.
 *
 * It parks in `preSend`, the write before the POST. That was its mistake
 * while the engine POSTed after its pre-send write whatever that write said:
 * the body was sent while its record said PARKED (parked-stays-parked,
 * under skew). Since a PARKED pre-send write parks instead of sending
 * (docs/rules.md, 'The decisions') the flaw no longer exists: it is clean,
 * and no longer in the finding-power list. It stays a fixture of a rule set
 * that reads pids (symmetry off). `stamp-version-fixed.ts` parks in
 * `complete` instead, clean too.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const stampVersion: RuleSet = extendRules(failClosed, {
  name: 'stamp-version',
  summary: 'fail-closed, stamping each attempt with the rule set and pid that took it; parks in preSend a body another version attempted.',
  preSend(record, view) {
    const who = view?.who;
    if (who === undefined) return failClosed.preSend(record);
    const other = typeof record.takenBy === 'string' && record.takenBy !== who.rules;
    if (other) return { ...record, status: 'PARKED', reason: 'outcome-unknown', inFlight: true };
    return { ...(failClosed.preSend(record) ?? record), takenBy: who.rules, takenPid: who.pid, takenSchema: who.schema };
  },
});

export default stampVersion;
