/**
 * Item "record status" (docs/rules.md, 'Record status'): `queued-in-flight.ts`
 * (QUEUED as the pre-send write), but the engine selects READY records only
 * (`WHERE status = 'READY'`), as if a QUEUED record were someone else's.
 *
 * Mistake: an attempt cut short by a crash, or by a reply that leaves the
 * record to retry, leaves it QUEUED, and nobody selects it again: its body is
 * neither sent, parked nor quarantined (settled-after-healing: the file left
 * live with no cause).
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import queuedInFlight from './queued-in-flight.ts';
import { payloadAltered } from '../../model/record.ts';

const queuedStranded: RuleSet = extendRules(queuedInFlight, {
  name: 'queued-stranded',
  summary: 'QUEUED as the pre-send write, and only READY records selected: a QUEUED record is never sent again.',
  // fail-closed's own selection too: a payload its digest does not name is never sent.
  selectable: (record) => record.status === 'READY' && !payloadAltered(record),
});

export default queuedStranded;
