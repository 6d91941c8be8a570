/** Broken on purpose: dispose returns a disposal of an unknown kind (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'dispose-malformed',
  summary: 'dispose returns a disposal of an unknown kind',
  dispose: () => ({ kind: 'burn' }) as never,
});
