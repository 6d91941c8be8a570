/**
 * fail-closed whose admission takes a QUEUED record met with a new body as
 * a send the release before it abandoned, and rebuilds it READY for the new
 * body as a fresh cycle (attempts 0, evidence cleared, resend epoch + 1), as
 * a team does when it migrates off a relay that marked records in flight by
 * status ("the old relay is gone; its QUEUED rows are leftovers").
 *
 * Mistake: during the rolling upgrade the old relay still runs, and its
 * QUEUED record is a send under way whose POST the broker may have stored.
 * The fresh cycle sends the new body under the same envelope id; a broker
 * that dedupes by id answers it as a duplicate of the old body, and the new
 * body is reported delivered while the broker holds only the old one
 * (no-phantom-delivery). fail-closed never writes QUEUED, so a check beside
 * it alone met no QUEUED record ("not asked: QUEUED"): only a world whose
 * older version writes QUEUED in flight shows it. The default check's probe
 * sees the rule set answer a QUEUED record otherwise than a READY one, and
 * searches the skewed default world again with such an older version
 * (docs/rules.md, 'Record status').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { digestOf } from '../../model/schema.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const queuedRebuiltFresh: RuleSet = extendRules(failClosed, {
  name: 'queued-rebuilt-fresh',
  summary: 'fail-closed, but a QUEUED record met with a new body is rebuilt READY for that body as a fresh cycle.',
  admit: (view) => {
    const { read, body } = view;
    if (read.kind === 'found' && read.metadataOnly !== true && read.record.status === 'QUEUED' && read.record.payload !== body) {
      const record = { ...read.record, payload: body, digest: digestOf(body), status: 'READY' as const, attempts: 0, inFlight: false, unknownSeen: false, resendEpoch: read.record.resendEpoch + 1 };
      return { kind: 'write', record };
    }
    return failClosed.admit(view);
  },
});

export default queuedRebuiltFresh;
