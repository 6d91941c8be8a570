// Worker-thread entry of a supervised command (see sim/cli/supervisor.ts):
// like the process's entry (outbox-sim.mjs), runs the compiled bundle when it
// is there and up to date (compiled.mjs), otherwise the sources through tsx,
// and hands the command thread the wall clock (used for reporting only).
import { compiledCli } from './compiled.mjs';
import { wallSeconds } from './clock.mjs';

const compiled = compiledCli();
let thread;
if (compiled !== null) {
  thread = await import(new URL('command-thread.js', compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  thread = await import('../sim/cli/command-thread.ts');
}
await thread.runCommandThread(wallSeconds);
