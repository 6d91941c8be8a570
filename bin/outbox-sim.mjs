#!/usr/bin/env node
// Entry point: registers the TypeScript loader (tsx) so that the CLI and a
// user's `.ts` rule files load without a build step, then runs the CLI with
// the process's streams and the wall clock (used for reporting only).
import { register } from 'tsx/esm/api';

// `outbox-sim ... | head` closes the pipe early: that is not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
register();
const argv = process.argv.slice(2);
// A command that loads a user's rule file runs on a worker thread under a watchdog (a decision may never return).
const { needsSupervisor, supervise } = await import('../sim/cli/supervisor.ts');
if (needsSupervisor(argv)) {
  process.exitCode = await supervise(argv);
} else {
  const { main } = await import('../sim/cli/main.ts');
  const { processIo } = await import('../sim/cli/io.ts');
  const now = () => Number(process.hrtime.bigint()) / 1e9;
  process.exitCode = await main(argv, { ...processIo, now });
}
