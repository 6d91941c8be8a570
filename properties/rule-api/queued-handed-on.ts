/**
 * Item "record status" (docs/rules.md, 'Record status'): fail-closed, but a
 * confirmed POST is completed in two writes, QUEUED (handed on) and then
 * DELIVERED, and the first already clears the attempt's evidence, as the
 * completion of fail-closed does.
 *
 * Mistake: a crash between the two writes leaves a QUEUED record that reads
 * as a fresh cycle of a body never tried. The next engine resends it; a
 * refusal of that resend (a 409 for the copy the broker already holds, or a
 * 400) parks it `permanent-refusal` for a body the broker holds
 * (honest-park). `queued-in-flight.ts` writes QUEUED before the POST, with
 * the evidence, and is clean.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const queuedHandedOn: RuleSet = extendRules(failClosed, {
  name: 'queued-handed-on',
  summary: 'fail-closed, completing a confirmed POST as QUEUED and then DELIVERED, the evidence cleared by the first write.',
  complete: (record, outcome, limits, view) => {
    const writes = failClosed.complete(record, outcome, limits, view);
    return outcome === 'confirmed' ? [{ ...writes[0], status: 'QUEUED' }, ...writes] : writes;
  },
});

export default queuedHandedOn;
