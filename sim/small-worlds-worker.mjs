// Worker-thread entry for piscina when running from the sources: load
// TypeScript through tsx, then hand piscina the suite task function (the
// compiled package's threads load small-worlds-task.js directly).
import { register } from 'tsx/esm/api';

register();
const { runSuiteTask } = await import('./small-worlds-task.ts');
export default runSuiteTask;
