/** Broken on purpose: admit returns nothing (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'admit-undefined',
  summary: 'admit returns nothing',
  admit: () => undefined as never,
});
