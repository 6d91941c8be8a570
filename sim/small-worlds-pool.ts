/**
 * The small-world suite on worker threads (`check --workers N`, N > 1):
 * the worlds are handed out in suite order, one at a time, to N threads
 * (piscina, as the seeds' pool), while the main thread only hands out,
 * times and reports. The result is the sequential suite's, whatever order
 * the worlds finish in: results are kept by their place in the suite and
 * given out (`onWorld`, the report) as a prefix of it. With `stopOnFirst`
 * no world after a violating one is handed out, the searches of those
 * already handed out are ended (their threads are replaced), and the worlds
 * before it are waited for, so the suite stops at the same world as on one
 * thread.
 * An interrupt stops the handing out; the report keeps the worlds searched
 * up to the first one not searched.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { runsCompiled } from './compiled.ts';
import type { SmallWorld, SmallWorldResult } from './small-worlds.ts';
import type { SuiteTask } from './small-worlds-task.ts';
import { watchBuffer } from './watch.ts';

/** How a parallel suite is run: the rule specs the threads load, and the caller's clock, hooks and fallback. */
export interface ParallelSuite {
  rules: string;
  oldRules: string | null;
  outDir: string;
  symmetry: boolean;
  /** Seconds since some start (the CLI's clock); the threads read none. */
  now: () => number;
  replayCommand: (path: string) => string;
  /** A reason to stop handing out worlds (an interrupt), or null. */
  stopReason: () => string | null;
  stopOnFirst: boolean;
  /** Each world's result, in suite order, as soon as it and every world before it are searched. */
  onWorld?: (index: number, r: SmallWorldResult) => void;
  /**
   * Searches a world on this thread: what a thread's failure is answered
   * with (a decision that broke its contract throws there, with the trace
   * the sequential suite gives).
   */
  inProcess: (index: number) => SmallWorldResult;
}

/** The file a suite thread loads: the compiled module, or from the sources the tsx entry. */
function workerFile(): string {
  return fileURLToPath(new URL(runsCompiled(import.meta.url) ? './small-worlds-task.js' : './small-worlds-worker.mjs', import.meta.url));
}

/** Searches `worlds` on `threads` threads; see the file comment for the order of the result. */
export async function exploreSuiteParallel(worlds: readonly SmallWorld[], threads: number, how: ParallelSuite): Promise<SmallWorldResult[]> {
  const results: (SmallWorldResult | undefined)[] = new Array<SmallWorldResult | undefined>(worlds.length);
  let next = 0;
  /** No world at or after this place is handed out. */
  let end = worlds.length;
  let given = 0;
  const flush = (): void => {
    for (let r = results[given]; given < end && r !== undefined; r = results[given]) how.onWorld?.(given++, r);
  };
  const take = (): number => (next < end && how.stopReason() === null ? next++ : -1);
  /** The worlds being searched on a thread, so that a violation before them can end their search. */
  const running = new Map<number, AbortController>();
  const pool = new Piscina({ filename: workerFile(), minThreads: threads, maxThreads: threads });
  try {
    const feeder = async (): Promise<void> => {
      for (let i = take(); i >= 0; i = take()) {
        const task: SuiteTask = { rules: how.rules, oldRules: how.oldRules, world: worlds[i], index: i, outDir: how.outDir, symmetry: how.symmetry, watch: watchBuffer() };
        const start = how.now();
        const abort = new AbortController();
        running.set(i, abort);
        let r: SmallWorldResult;
        try {
          const done = (await pool.run(task, { signal: abort.signal })) as SmallWorldResult;
          r = { ...done, seconds: how.now() - start, violations: done.violations.map((v) => ({ ...v, replay: how.replayCommand(v.path) })) };
        } catch {
          // A world after a violating one (under stopOnFirst) is not searched on one thread: its search was ended.
          if (i >= end) continue;
          r = how.inProcess(i);
        } finally {
          running.delete(i);
        }
        if (i >= end) continue;
        results[i] = r;
        if (how.stopOnFirst && r.violations.length > 0) {
          end = Math.min(end, i + 1);
          for (const [j, a] of running) if (j >= end) a.abort();
        }
        flush();
      }
    };
    await Promise.all(Array.from({ length: Math.min(threads, worlds.length) }, feeder));
  } finally {
    await pool.destroy();
  }
  flush();
  return results.slice(0, given) as SmallWorldResult[];
}
