/**
 * A plausible mistake, kept to show what a failing check looks like: a record
 * that cannot be parsed is treated as absent, and a new one is written over it.
 */
import { extendRules, failClosed, freshRecord } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'corrupt-as-absent',
  summary: 'A corrupt record is treated as absent: publish writes a new READY record over it.',
  admit(view) {
    if (view.read.kind === 'corrupt') return { kind: 'write', record: freshRecord(view.body, 0) };
    return failClosed.admit(view);
  },
});
