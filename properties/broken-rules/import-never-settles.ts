/** Broken on purpose: the file awaits, at its top level, a promise nothing settles (see ../broken-rules.test.ts). */
import { extendRules, failClosed } from 'outbox-sim';

await new Promise<void>(() => undefined);

export default extendRules(failClosed, { name: 'import-never-settles', summary: 'a top-level await that never ends' });
