/**
 * A supervised command's worker thread, as the compiled package runs it
 * (dist/sim/cli/command-worker-entry.js: no loader needed). From the
 * sources, command-worker.mjs registers tsx and imports this module.
 * The wall clock is for reporting only, as the process's is in bin/.
 */
import { runCommandThread } from './command-thread.ts';

await runCommandThread(() => Number(process.hrtime.bigint()) / 1e9);
