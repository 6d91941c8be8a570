/** Broken on purpose: classify never returns (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'classify-loops',
  summary: 'classify never returns',
  classify: (reply) => {
    for (;;) if (reply === ('never' as string)) break;
    return 'confirmed';
  },
});
