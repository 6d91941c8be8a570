/** Broken on purpose: mayClaim returns a string, not a boolean (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'mayclaim-malformed',
  summary: 'mayClaim returns a string, not a boolean',
  mayClaim: () => 'yes' as never,
});
