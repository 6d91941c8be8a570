/**
 * The pool of worker threads a `check` job runs on (piscina: a well-kept pool
 * with task queueing and clean shutdown, rather than hand-rolled worker
 * bookkeeping), and the Node flags its threads start with.
 */
import type { Piscina } from 'piscina';
import type { PlanSpec } from './check-task.ts';
import { checkWorkerFile } from './worker-bundle.ts';

/**
 * A pool of `threads` worker threads that run the tasks of `plan`
 * (from the bundled worker when it can). Piscina is loaded here, on the
 * first pool, not with this module: a check on one worker never pays for
 * loading it (a catalog flaw's first answer comes within a second).
 */
export async function checkThreadPool(threads: number, plan: PlanSpec): Promise<Piscina> {
  const { Piscina } = await import('piscina');
  const filename = await checkWorkerFile(plan);
  const open = (execArgv: string[]): Piscina => new Piscina({ filename, minThreads: threads, maxThreads: threads, execArgv });
  const argv = threadExecArgv();
  try {
    return open(argv);
  } catch (err) {
    // A flag of the process that a thread refuses (`node --max-old-space-size=4096 ...`): the threads start without it.
    if (!(err instanceof Error) || (err as NodeJS.ErrnoException).code !== REFUSED_FLAGS) throw err;
    return open(withoutRefused(argv, err.message));
  }
}

/**
 * Node's error for flags given to a worker thread that a thread cannot take:
 * V8's flags (`--max-old-space-size`, `--stack-size`) and the process's own
 * (`--title`). They hold for the whole process already, every thread
 * included, so a thread loses nothing without them. A thread given no flags
 * inherits them silently; a pool's threads are given flags (the one below),
 * and Node then refuses the whole list.
 */
const REFUSED_FLAGS = 'ERR_WORKER_INVALID_EXEC_ARGV';

/**
 * `argv` without the flags Node's refusal names (its message lists them
 * after a colon, separated by commas). When it names none of them (another
 * wording), only the flag below is kept: loading the compiled package needs
 * no other, and a user's loader flags are lost only on such a Node.
 */
export function withoutRefused(argv: readonly string[], message: string): string[] {
  const colon = message.indexOf(':');
  const named = new Set(colon < 0 ? [] : message.slice(colon + 1).split(',').map((f) => f.trim()));
  const kept = argv.filter((f) => !named.has(f));
  return kept.length < argv.length ? kept : argv.filter((f) => f === NO_REQUIRE_ESM);
}

/** Turns off `require()` of ES modules in a thread (Node 20.19 and 22.12 turned it on). */
export const NO_REQUIRE_ESM = '--no-experimental-require-module';

/**
 * The pool threads' Node flags: the process's own, and no `require()` of ES
 * modules where Node knows the flag. Piscina loads a thread's task file by
 * `require()` first and falls back to `import()`; it does so once to
 * preload the file and again for the first task. With `require()` of ES
 * modules on, the second `require()` can meet the module while the first
 * load's `import()` is still linking it, and Node 20 then aborts the
 * process with a fatal V8 error (`IsGraphAsync must be used on an
 * instantiated module`), seen under `--workers 2` with a user's rule file.
 * With it off, `require()` refuses an ES module at once, and every load goes
 * through `import()`, which shares one load between callers.
 */
export function threadExecArgv(): string[] {
  const known = process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM);
  return known && !process.execArgv.includes(NO_REQUIRE_ESM) ? [...process.execArgv, NO_REQUIRE_ESM] : [...process.execArgv];
}
