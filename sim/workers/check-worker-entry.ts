/**
 * The `check` worker thread's module as the compiled package runs it
 * (dist/cli/check-worker-entry.js): piscina calls its default export.
 * From the sources, worker-bundle.ts bundles thread-task.ts instead (or
 * check-worker.mjs loads it through tsx).
 */
export { threadTask as default } from './thread-task.ts';
