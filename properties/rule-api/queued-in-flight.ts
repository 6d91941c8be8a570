/**
 * Item "record status" (docs/rules.md, 'Record status'): fail-closed, but
 * the pre-send write marks the attempt as QUEUED (as some engines mark a
 * record in flight by its status) besides setting fail-closed's evidence.
 * The delivery core drains a QUEUED record as it drains a READY one, so a
 * crash mid-attempt leaves a record the next engine resends with the
 * evidence that the first POST may have stored the body. Clean.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const queuedInFlight: RuleSet = extendRules(failClosed, {
  name: 'queued-in-flight',
  summary: 'fail-closed, with the pre-send write also setting the status QUEUED.',
  preSend: (record, view) => {
    const written = failClosed.preSend(record, view);
    return written === null ? null : { ...written, status: 'QUEUED' };
  },
});

export default queuedInFlight;
