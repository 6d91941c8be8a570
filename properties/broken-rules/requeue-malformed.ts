/** Broken on purpose: requeue returns null, not a record (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'requeue-malformed',
  summary: 'requeue returns null, not a record',
  requeue: () => null as never,
});
