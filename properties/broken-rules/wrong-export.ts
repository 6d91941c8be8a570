/** Broken on purpose: the default export is a decision, not a rule set (see ../broken-rules.test.ts). */
import { failClosed } from 'outbox-sim';

export default failClosed.classify;
