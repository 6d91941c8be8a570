/**
 * Item "every decision knows who decides" (docs/rules.md, 'Who decides'):
 * fail-closed, but each attempt is stamped with the rule set that took it
 * (`takenBy`, from `who.rules`; `takenSchema`, its schema version) and the
 * engine (`takenPid`, from `who.pid`).
 * A body an engine of another version had already attempted is parked for
 * review instead of sent again.
 *
 * Mistake: it parks in `preSend`, the write before the POST. The engine POSTs
 * after its pre-send write whatever that write says, so the body is sent
 * while its record says PARKED (parked-stays-parked). `stamp-version-fixed.ts`
 * parks in `complete` instead.
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
