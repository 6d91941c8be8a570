/**
 * The priority of a `check` worker thread, chosen by the pool that starts it
 * (its `workerData`: thread-nice.ts) and set on import, before the
 * rest of the thread's code is compiled (thread-task.ts imports this first).
 *
 * Under `--stop-on-first` the thread runs at the lowest priority (Linux
 * nice 19, kept per thread): the answer comes from the main thread (it
 * searches the suite's first world first and prints what anyone finds),
 * and V8 runs its compiler and garbage collector for it on helper threads;
 * on a 2-core machine a worker thread loading and warming up at equal
 * priority took those cores and delayed the first answer of
 * `check --rules fresh-cycle --stop-on-first` from 0.8 s to 1.2 s (at nice
 * 19, 0.86 to 0.93 s).
 *
 * Otherwise (the whole run is what a user waits for) it runs at the normal
 * priority, as a second process would: the kernel gives a nice-19 thread a
 * weight of 15 against 1,024 for each runnable thread at nice 0, so on a
 * machine shared with other work it all but stops. Measured on this 2-core
 * machine at a load average of 7.7: the thread of `check --swarm-only
 * --seeds 10000 --workers 2` took its first 250 seeds and had run none of
 * them 7 s later, when the main thread had run every other seed and then
 * waited for it; at nice 0 it ran 4,625 of the 10,000.
 *
 * Elsewhere (macOS, Windows) the nice value is the whole process's, so this
 * does nothing there.
 */
import { setPriority } from 'node:os';
import { isMainThread, workerData } from 'node:worker_threads';
import type { ThreadPriority } from './thread-nice.ts';

/** The nice value the calling thread's pool asked for (0 when it asked none). */
function askedNice(): number {
  const data = workerData as Partial<ThreadPriority> | null | undefined;
  return typeof data?.nice === 'number' ? data.nice : 0;
}

/** Lowers the calling thread's priority to `nice`, if it is a worker thread on Linux and `nice` is above 0; true when it did. */
export function lowerWorkerThreadPriority(nice: number = askedNice()): boolean {
  if (isMainThread || process.platform !== 'linux' || nice <= 0) return false;
  try {
    setPriority(nice);
    return true;
  } catch {
    // A sandbox that forbids it leaves the thread at normal priority: slower first answers, same results.
    return false;
  }
}

lowerWorkerThreadPriority();
