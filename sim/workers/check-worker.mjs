// Worker-thread entry for piscina: load TypeScript through tsx, then hand
// piscina the task function.
import { register } from 'tsx/esm/api';

register();
const { threadTask } = await import('./thread-task.ts');
export default threadTask;
