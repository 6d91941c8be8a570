/**
 * Mistake: the body of a parked record, met again (its file still live after
 * a crash before dispose, or restored from quarantine), is written as a fresh
 * READY record "because the record is stale", and is sent again. The park was
 * final for that body: no operator requeued it. Only parked-stays-parked per
 * body catches it: at the POST the record says READY, not PARKED.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';
import { freshRecord } from '../../model/record.ts';

const mutant: RuleSet = extendRules(failClosed, {
  name: 'mutant-rebuild-parked-same-body',
  summary: 'A parked record met again with its own body is rebuilt READY (a fresh cycle of the parked body).',
  admit: (view) =>
    view.read.kind === 'found' && view.read.record.status === 'PARKED' && view.read.record.payload === view.body
      ? // It keeps what is known of the body's fate (unknownSeen), so its parks stay honest.
        { kind: 'write', record: { ...freshRecord(view.body, view.read.record.resendEpoch + 1), unknownSeen: view.read.record.unknownSeen } }
      : failClosed.admit(view),
});

export default mutant;
