// Worker-thread entry for piscina: load TypeScript through tsx, then hand
// piscina the task function.
import { register } from 'tsx/esm/api';

register();
const { runTask } = await import('./check-task.ts');
export default runTask;
