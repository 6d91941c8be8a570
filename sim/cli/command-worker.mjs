// Worker-thread entry of a supervised command (see supervisor.ts): load
// TypeScript through tsx, then run the command thread.
import { register } from 'tsx/esm/api';

register();
await import('./command-thread.ts');
