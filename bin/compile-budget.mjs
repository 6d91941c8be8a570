// How much the optimising compiler may inline, per command (docs/performance.md,
// 'Compiling, not running'). `check` is short: the main job runs fifteen small
// worlds and five thousand seeds in about three seconds, and with V8's default
// inlining budget about a fifth of its CPU went to compiling large inlined
// functions, again after each world deoptimised them. A smaller budget compiles
// faster and costs long runs a few per cent (BENCHMARKS.md). V8's flags belong
// to the process, so only the command-line entry sets one, before the command
// loads: the library (`outbox-sim/api`) leaves its user's process as it is.
import { setFlagsFromString } from 'node:v8';

/** The V8 flags a command runs under (none for a command not listed). */
export function compileFlags(argv) {
  return argv[0] === 'check' ? ['--max-inlined-bytecode-size-cumulative=60'] : [];
}

/** Sets `compileFlags(argv)` on this process: read by each later optimising compile, in every thread. */
export function applyCompileBudget(argv) {
  for (const flag of compileFlags(argv)) setFlagsFromString(flag);
}
