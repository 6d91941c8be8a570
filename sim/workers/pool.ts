/**
 * Running `check` seeds on N workers. With N workers the main thread is one
 * of them: it is warm already, so only N - 1 threads (thread-pool.ts) pay the
 * start-up cost. Seeds are handed out in chunks from one queue
 * (check-job.ts), so faster threads take more; results merge
 * order-independently (counts add up, the first counterexample per property
 * is the lowest seed), so the report and its traces are the same with any
 * number of workers.
 *
 * When the caller says it can report a partial run (`interruptible`), an
 * interrupt (Ctrl-C, SIGTERM: ../interrupt.ts) stops the handing out of
 * seeds; tasks already running finish and merge (a thread's, if it hands it
 * back within half a second: check-job.ts), so the result covers whole
 * tasks only (its `runs` says how many seeds). A caller that cannot (compare
 * reads its runs as a verdict) always gets every seed.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { mergeShards, type ShardResult } from '../check.ts';
import { runTask, type CheckTask, type PlanSpec } from './check-task.ts';
import { watchBuffer } from '../watch.ts';
import { MAIN_CHUNK_SEEDS } from './job-queue.ts';
import { interruption } from '../interrupt.ts';
import { runCheckJob } from './check-job.ts';
import type { JobSpec } from './job-thread.ts';

/** Hands out consecutive seed ranges of a plan. */
class Cursor {
  constructor(
    private readonly plan: PlanSpec,
    private next: number,
    private to: number,
    private readonly interruptible: boolean,
    private readonly stopOnViolation: boolean,
  ) {}
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

/**
 * Runs seeds [from, to) on `workers` workers (the main thread included);
 * reports seeds done; may stop early (see {@link ParallelOptions}). With
 * more than one, the seeds are a check job without worlds (check-job.ts),
 * which runs again on the main thread what a starved thread holds: under
 * four busy loops `compare --workers 2` waited 82 to 84 s for such a
 * thread, against 6 s on one worker.
 */
export async function runSeedsParallel(
  plan: PlanSpec,
  from: number,
  to: number,
  workers: number,
  onSeeds?: (done: number) => void,
  { interruptible = false, stopOnViolation = false, onViolation }: ParallelOptions = {},
): Promise<ShardResult> {
  if (workers > 1) return seedsJob(plan, from, to, workers, onSeeds, { interruptible, stopOnViolation, ...(onViolation !== undefined ? { onViolation } : {}) });
  const cursor = new Cursor(plan, from, to, interruptible, stopOnViolation);
  const results: ShardResult[] = [];
  let done = 0;
  for (let t = cursor.take(MAIN_CHUNK_SEEDS); t !== null; t = cursor.take(MAIN_CHUNK_SEEDS)) {
    const r = await runTask(t);
    results.push(r);
    if (r.fault !== undefined) cursor.stopAt(r.fault.seed);
    const found = Object.values(r.first);
    if (stopOnViolation && found.length > 0) cursor.stopAt(Math.min(...found.map((c) => c.seed)) + 1);
    done += r.runs;
    onSeeds?.(done);
    if (found.length > 0 && r.fault === undefined) onViolation?.(r);
    // A turn of the event loop between chunks: it lets a signal handler record an interrupt.
    await yieldToLoop();
  }
  return mergeShards(results);
}

/** Seeds [from, to) as a check job without worlds on `workers` workers; its threads have ended when it resolves. */
async function seedsJob(plan: PlanSpec, from: number, to: number, workers: number, onSeeds: ((done: number) => void) | undefined, options: Required<Omit<ParallelOptions, 'onViolation'>> & Pick<ParallelOptions, 'onViolation'>): Promise<ShardResult> {
  const job: JobSpec = { rules: plan.rules, oldRules: plan.oldRules, ...(plan.pins !== undefined ? { pins: plan.pins } : {}), worlds: [], outDir: '', symmetry: true, plan, workers, stopOnFirst: options.stopOnViolation };
  const result = await runCheckJob(job, [], from, to, {
    now: () => 0,
    replayCommand: (path) => path,
    searchHere: () => {
      throw new Error('a job of seeds alone has no world to search');
    },
    interruptible: options.interruptible,
    ...(onSeeds !== undefined ? { onSeeds } : {}),
    ...(options.onViolation !== undefined ? { onViolation: options.onViolation } : {}),
  });
  await result.threadsEnded;
  return result.swarm;
}
