// Worker-thread entry of a supervised command (see supervisor.ts) when the
// CLI runs from the TypeScript sources: load them through tsx, then run the
// entry the compiled package starts directly (command-worker-entry.ts).
import { register } from 'tsx/esm/api';

register();
await import('./command-worker-entry.ts');
