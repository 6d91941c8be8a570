/** Broken on purpose: classify returns an outcome that does not exist (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'classify-malformed',
  summary: 'classify returns an outcome that does not exist',
  classify: () => 'strange' as never,
});
