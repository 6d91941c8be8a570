/**
 * Running `check` seeds on worker threads (piscina: a well-kept pool with
 * task queueing and clean shutdown, rather than hand-rolled worker
 * bookkeeping). With N workers the main thread is one of them: it is warm
 * already, so only N - 1 threads pay the start-up cost. Seeds are handed out
 * in chunks from one cursor, so faster threads take more; results merge
 * order-independently (counts add up, the first counterexample per property
 * is the lowest seed), so the report and its traces are the same with any
 * number of workers.
 *
 * When the caller says it can report a partial run (`interruptible`), an
 * interrupt (Ctrl-C, SIGTERM: ../interrupt.ts) stops the handing out of
 * seeds; tasks already running finish and merge, so the result covers whole
 * tasks only (its `runs` says how many seeds). A caller that cannot (compare
 * reads its runs as a verdict) always gets every seed.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Piscina } from 'piscina';
import { mergeShards, type ShardResult } from '../check.ts';
import { runTask, type CheckTask, type PlanSpec } from './check-task.ts';
import { checkWorkerFile } from './worker-bundle.ts';
import { watchBuffer } from '../watch.ts';
import { MAIN_CHUNK_SEEDS, threadChunk } from './job-queue.ts';
import { interruption } from '../interrupt.ts';

export { MAIN_CHUNK_SEEDS, THREAD_CHUNK_SEEDS, threadChunk } from './job-queue.ts';
/** Tasks queued per thread, so that a thread never waits for the main thread to hand it the next. */
const QUEUE_PER_THREAD = 2;
/** Hands out consecutive seed ranges of a plan. */
class Cursor {
  constructor(
    private readonly plan: PlanSpec,
    private next: number,
    private to: number,
    private readonly interruptible: boolean,
    private readonly stopOnViolation: boolean,
  ) {}
  get remaining(): number {
    return this.to - this.next;
  }
  take(size: number): CheckTask | null {
    if (this.next >= this.to || (this.interruptible && interruption() !== null)) return null;
    const task: CheckTask = { plan: this.plan, from: this.next, to: Math.min(this.to, this.next + size), watch: watchBuffer(), ...(this.stopOnViolation ? { stopOnViolation: true } : {}) };
    this.next = task.to;
    return task;
  }
  /**
   * Hands out no seed from `seed` on (a rule set's decision broke at it).
   * Seeds below it still run, so the fault reported is the lowest seed's,
   * as with one worker.
   */
  stopAt(seed: number): void {
    this.to = Math.min(this.to, seed);
  }
}

/**
 * A pool of `threads` worker threads that run {@link CheckTask}s of `plan`
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

/** How a parallel run may end early, and who hears of violations as they come. */
export interface ParallelOptions {
  /** Stop handing out seeds on an interrupt. */
  interruptible?: boolean;
  /**
   * Stop handing out seeds after the first violating seed (`--stop-on-first`):
   * each task ends at its first violation, and no seed above it is handed
   * out. With one worker the seeds run are exactly those up to that seed.
   */
  stopOnViolation?: boolean;
  /** Called with each task's result that holds a counterexample, as it arrives (answer first). */
  onViolation?: (r: ShardResult) => void;
}

/** Runs seeds [from, to) on `workers` threads (the main thread included); reports seeds done; may stop early (see {@link ParallelOptions}). */
export async function runSeedsParallel(
  plan: PlanSpec,
  from: number,
  to: number,
  workers: number,
  onSeeds?: (done: number) => void,
  { interruptible = false, stopOnViolation = false, onViolation }: ParallelOptions = {},
): Promise<ShardResult> {
  const cursor = new Cursor(plan, from, to, interruptible, stopOnViolation);
  const results: ShardResult[] = [];
  let done = 0;
  const finish = (r: ShardResult): void => {
    results.push(r);
    if (r.fault !== undefined) cursor.stopAt(r.fault.seed);
    const found = Object.values(r.first);
    if (stopOnViolation && found.length > 0) cursor.stopAt(Math.min(...found.map((c) => c.seed)) + 1);
    done += r.runs;
    onSeeds?.(done);
    if (found.length > 0 && r.fault === undefined) onViolation?.(r);
  };
  const threads = workers - 1;
  const pool = threads > 0 ? await checkThreadPool(threads, plan) : null;
  try {
    const feeders: Promise<void>[] = [];
    if (pool !== null) {
      const nextThreadTask = (): CheckTask | null => cursor.take(threadChunk(cursor.remaining, workers));
      for (let i = 0; i < threads * QUEUE_PER_THREAD; i++) {
        feeders.push(
          (async () => {
            for (let t = nextThreadTask(); t !== null; t = nextThreadTask()) finish((await pool.run(t)) as ShardResult);
          })(),
        );
      }
    }
    for (let t = cursor.take(MAIN_CHUNK_SEEDS); t !== null; t = cursor.take(MAIN_CHUNK_SEEDS)) {
      finish(await runTask(t));
      // A turn of the event loop between chunks: it feeds the threads, and it
      // lets a signal handler record an interrupt even with --workers 1.
      await yieldToLoop();
    }
    await Promise.all(feeders);
    return mergeShards(results);
  } finally {
    await pool?.destroy();
  }
}
