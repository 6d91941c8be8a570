/**
 * How many workers `check` uses when `--workers` is not given: the machine's
 * cores (capped), for a job worth a thread's start-up and warm-up (about a
 * second of CPU each: worker-bundle.ts); one for a small one, and one for a
 * rule set given to the library as a value (it lives on this thread only).
 */
import { availableParallelism } from 'node:os';

/** The most threads a check starts by default. */
export const DEFAULT_WORKERS_MAX = 8;
/**
 * Without the small worlds, fewer seeds than this run on one thread: below
 * about 5,000 seeds a second thread's warm-up costs more than its share of
 * the seeds saves (measured on two cores: docs/performance.md, 'The main job').
 */
export const THREADED_SEEDS_MIN = 5_000;

/** What decides the default: whether the suite runs, how many seeds, whether a rule set is a value in this process. */
export interface WorkersJob {
  smallWorlds: boolean;
  seeds: number;
  inProcessRules: boolean;
}

/** The default number of workers for `job` on a machine with `cores` cores. */
export function defaultWorkers(job: WorkersJob, cores: number = availableParallelism()): number {
  if (job.inProcessRules || (!job.smallWorlds && job.seeds < THREADED_SEEDS_MIN)) return 1;
  return Math.max(1, Math.min(cores, DEFAULT_WORKERS_MAX));
}
