/**
 * The `check` worker thread's module as the compiled package runs it
 * (dist/sim/workers/check-worker-entry.js): piscina calls its default export.
 * From the sources, worker-bundle.ts bundles check-task.ts instead (or
 * check-worker.mjs loads it through tsx).
 */
export { runTask as default } from './check-task.ts';
