/** Broken on purpose: not valid TypeScript (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, { name: 'syntax-error', summary: 'a missing brace' ;
