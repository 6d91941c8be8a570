/** Broken on purpose: admit returns an admission of an unknown kind (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'admit-malformed',
  summary: 'admit returns an admission of an unknown kind',
  admit: () => ({ kind: 'bogus' }) as never,
});
