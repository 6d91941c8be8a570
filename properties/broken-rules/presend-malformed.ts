/** Broken on purpose: preSend returns a record whose digest is a number (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'presend-malformed',
  summary: 'preSend returns a record whose digest is a number',
  preSend: (record) => ({ ...record, digest: 7 }) as never,
});
