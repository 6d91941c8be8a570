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
 * Without the small worlds, fewer seeds than this run on one thread. Where a
 * second thread starts to pay, measured on two cores (whole processes,
 * `check --swarm-only --seeds N --workers 1|2`, three alternated rounds,
 * wall seconds): 2,000 seeds 0.85-0.91 on one thread against 0.97-1.00 on
 * two; 5,000 seeds 1.38-1.46 against 1.34-1.39; 8,000 seeds 1.84-1.91
 * against 1.72-1.74. Below about 5,000 seeds the thread's warm-up costs more
 * than its share of the seeds saves (docs/performance.md, 'The main job').
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
