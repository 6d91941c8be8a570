/** Broken on purpose: classify ends the process (see ../broken-rules.test.ts): nothing is checked, so it is bad input, not a clean result. */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'classify-exits',
  summary: 'classify calls process.exit(0)',
  classify: () => process.exit(0),
});
