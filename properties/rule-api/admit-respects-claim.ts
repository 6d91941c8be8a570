/**
 * `admit-ignores-claim.ts` reading the claim: a newer body supersedes a
 * READY record only while its claim is free and no attempt of the old body
 * may have reached the broker (none counted, none in flight). A claim held
 * by a live engine means an attempt may be in flight now; one held by a
 * dead engine, that an attempt may have been stored before it died; a torn
 * one cannot be read. Otherwise the record's current cycle is drained first
 * (`keep`, as fail-closed does) and the new body waits for a later pass.
 *
 * The claim check ends the phantom delivery; superseding itself still drops
 * the old body when it never reached the broker, and the tool says so
 * (no-silent-loss): "latest wins" is a loss the properties refuse.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { supersede } from './admit-ignores-claim.ts';

const admitRespectsClaim: RuleSet = extendRules(failClosed, {
  name: 'admit-respects-claim',
  summary: 'fail-closed, but a newer body supersedes a READY record with a fresh cycle only while its claim is free and no attempt was made.',
  admit(view) {
    const write = supersede(view);
    if (write === null || view.read.kind !== 'found') return failClosed.admit(view);
    const record = view.read.record;
    const attempted = record.attempts > 0 || record.inFlight === true;
    return view.claim.kind !== 'free' || attempted ? failClosed.admit(view) : write;
  },
});

export default admitRespectsClaim;
