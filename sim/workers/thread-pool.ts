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
  return new Piscina({ filename: await checkWorkerFile(plan), minThreads: threads, maxThreads: threads, execArgv: threadExecArgv() });
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
