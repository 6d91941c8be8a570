#!/usr/bin/env node
// Entry point: runs the compiled JavaScript in dist/ when it is there and
// up to date (see compiled.mjs); otherwise registers the TypeScript loader
// (tsx) and runs the sources. A user's rule file needs neither: esbuild
// bundles it (sim/rules-bundle.ts). Then runs the CLI with the process's
// streams and the wall clock (used for reporting only).
import { compiledCli } from './compiled.mjs';
import { wallSeconds } from './clock.mjs';
import { applyCompileBudget } from './compile-budget.mjs';

// `outbox-sim ... | head` closes the pipe early: that is not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
const argv = process.argv.slice(2);
// Before the command's code loads, so that all of it compiles under its budget.
applyCompileBudget(argv);
const compiled = compiledCli();
let cli;
if (compiled !== null) {
  // A stack through a rule file's bundle names the user's file and line (tsx turns source maps on for the sources).
  process.setSourceMapsEnabled(true);
  const load = (name) => () => import(new URL(`${name}.js`, compiled).href);
  cli = { supervisor: load('supervisor'), main: load('main'), io: load('io') };
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = { supervisor: () => import('../sim/cli/supervisor.ts'), main: () => import('../sim/cli/main.ts'), io: () => import('../sim/cli/io.ts') };
}
// A command that loads a user's rule file runs on a worker thread under a watchdog (a decision may never return).
const { needsSupervisor, supervise } = await cli.supervisor();
if (needsSupervisor(argv)) {
  process.exitCode = await supervise(argv);
} else {
  const { main } = await cli.main();
  const { processIo } = await cli.io();
  process.exitCode = await main(argv, { ...processIo, now: wallSeconds });
}
