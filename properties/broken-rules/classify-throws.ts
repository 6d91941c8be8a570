/** Broken on purpose: classify throws (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'classify-throws',
  summary: 'classify throws',
  classify: (reply) => {
    throw new Error(`cannot classify ${reply}`);
  },
});
