// The command line as the bin runs it (dist/cli/): esbuild bundles the
// CLI's sources and the packages they use into a few ES modules, split at
// the dynamic imports (each command's module is imported when that command
// runs: sim/cli/main.ts), so that a command loads and compiles only its own
// code. Loading the compiled modules one by one (dist/sim/, what the
// library's exports name) cost `outbox-sim rules` most of its start-up:
// resolving, reading and compiling each of some two hundred files.
//
// The entries keep the names the bin and the worker threads load them by:
// main, io and supervisor for outbox-sim.mjs; command-thread for
// command-worker.mjs, the thread of a supervised command; and
// check-worker-entry.js, the thread of `check --workers N`, which
// worker-bundle.ts finds beside its own module (import.meta.url: the
// bundle's file, in the same folder), which also searches the small worlds
// of `check --workers N` (sim/workers/check-job.ts). Shared code is in
// chunk-*.js files beside them.
//
// Not bundled: piscina (its pool starts its own worker file, found beside
// its own module) and esbuild (the rule-file loader's compiler finds its
// native binary beside its package); both stay dependencies.
import { build } from 'esbuild';
import { join } from 'node:path';

/** The bundle's entries: the file each is written to (dist/cli/NAME.js), from its source. */
export const CLI_ENTRIES = {
  main: 'sim/cli/main.ts',
  io: 'sim/cli/io.ts',
  supervisor: 'sim/cli/supervisor.ts',
  'command-thread': 'sim/cli/command-thread.ts',
  'check-worker-entry': 'sim/workers/check-worker-entry.ts',
};

/** Bundles the CLI from the checkout at `root` into `outdir`. */
export async function bundleCli(root, outdir) {
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(CLI_ENTRIES).map(([name, source]) => [name, join(root, source)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    external: ['piscina', 'esbuild'],
    logLevel: 'warning',
    // Bundled CommonJS packages call `require` for Node's own modules, and write-file-atomic reads
    // `__filename` (to name its temporary files); an ES module has neither.
    banner: {
      js: "import { createRequire as __outboxSimRequire } from 'node:module'; import { fileURLToPath as __outboxSimPath } from 'node:url'; const require = __outboxSimRequire(import.meta.url); const __filename = __outboxSimPath(import.meta.url);",
    },
  });
}
