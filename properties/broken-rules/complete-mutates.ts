/** Broken on purpose: complete changes the record it is given (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'complete-mutates',
  summary: 'complete bumps attempts on the record it was given, then delegates',
  complete(record, outcome, limits, view) {
    if (outcome === 'transient') (record as { attempts: number }).attempts += 1;
    return failClosed.complete(record, outcome, limits, view);
  },
});
