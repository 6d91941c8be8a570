/** Broken on purpose: complete returns a string, not a list of records (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'complete-malformed',
  summary: 'complete returns a string, not a list of records',
  complete: () => 'done' as never,
});
