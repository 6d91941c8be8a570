/** Broken on purpose: envelope returns no key and a numeric body (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'envelope-malformed',
  summary: 'envelope returns no key and a numeric body',
  envelope: (id) => ({ id, body: 1 }) as never,
});
