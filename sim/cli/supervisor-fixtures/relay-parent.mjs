// A process whose command thread is relay-worker.mjs, supervised as the CLI supervises a command
// (supervisor.test.ts): argv[2] says whether the worker answers an interrupt ("answer") or not ("ignore").
import { register } from 'tsx/esm/api';

register();
const { supervise } = await import('../supervisor.ts');
process.exitCode = await supervise([process.argv[2]], { entry: new URL('./relay-worker.mjs', import.meta.url), graceSeconds: 1 });
