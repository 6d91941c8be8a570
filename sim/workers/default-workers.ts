/**
 * How many workers `check` uses when `--workers` is not given: the machine's
 * idle cores (capped), for a job worth a thread's start-up and warm-up (about
 * a second of CPU each: worker-bundle.ts); one for a small one, and one for a
 * rule set given to the library as a value (it lives on this thread only).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

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

/** The default number of workers, and the machine's load when it lowered them below the cores. */
export interface WorkersChoice {
  workers: number;
  /** The load ({@link machineLoad}) that left fewer idle cores than the job would use, and the cores; or null. */
  busy: { load: number; cores: number } | null;
}

/**
 * The machine's load as `check` starts: the one-minute load average, but no
 * more than the tasks running right now besides this one (Linux's
 * /proc/loadavg), since the average lags a minute behind: just after a
 * build or a test run it still says 1 or 2 on an idle machine. Elsewhere
 * the average alone (0 where there is none: Windows).
 */
export function machineLoad(): number {
  const average = loadavg()[0] ?? 0;
  let text: string;
  try {
    text = readFileSync('/proc/loadavg', 'utf8');
  } catch {
    return average;
  }
  // The fourth field: tasks running or runnable now / all tasks; this process's reading thread is one.
  const running = Number(/^\S+ \S+ \S+ (\d+)\//.exec(text)?.[1]);
  return Number.isInteger(running) ? Math.min(average, Math.max(0, running - 1)) : average;
}

/**
 * The default for `job` on a machine with `cores` cores and a load of
 * `load` ({@link machineLoad}). A thread only pays on a core nobody else
 * uses: with one core of two busy, the main job took 4.0 to 4.2 s on one
 * worker and 4.3 to 4.4 s on two, and threads gain nothing for each other
 * beside more load (docs/performance.md, 'On a busy machine'). So the
 * threads are the idle cores, rounded: on two cores, two below a load of 0.5.
 */
export function chooseWorkers(job: WorkersJob, cores: number = availableParallelism(), load: number = machineLoad()): WorkersChoice {
  if (job.inProcessRules || (!job.smallWorlds && job.seeds < THREADED_SEEDS_MIN)) return { workers: 1, busy: null };
  const wanted = Math.max(1, Math.min(cores, DEFAULT_WORKERS_MAX));
  const idle = Math.max(1, Math.round(cores - load));
  return idle < wanted ? { workers: idle, busy: { load, cores } } : { workers: wanted, busy: null };
}
