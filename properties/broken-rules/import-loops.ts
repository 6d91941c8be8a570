/** Broken on purpose: the file never finishes loading (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

let spins = 0;
for (;;) if (++spins < 0) break;

export default extendRules(failClosed, { name: 'import-loops', summary: 'a loop at the top level of the file' });
