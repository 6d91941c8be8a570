// Worker-thread entry of a supervised command (see supervisor.ts): load
// TypeScript through tsx, then run the command thread with the wall clock
// (for reporting only).
import { register } from 'tsx/esm/api';

register();
const { runCommandThread } = await import('./command-thread.ts');
await runCommandThread(() => Number(process.hrtime.bigint()) / 1e9);
