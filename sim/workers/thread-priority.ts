/**
 * A `check` worker thread runs at a lower priority than the main thread
 * (Linux nice 19, the lowest; Linux keeps the nice value per thread). The main thread is
 * where a first answer comes from (it searches the suite's first world under
 * `--stop-on-first`, and prints what anyone finds), and V8 runs its compiler
 * and garbage collector for it on helper threads: on a 2-core machine a worker
 * thread loading and warming up at equal priority took those cores and
 * delayed the first answer of `check --rules fresh-cycle --stop-on-first`
 * from 0.8 s (one worker) to 1.2 s; at nice 19 it is 0.86 to 0.93 s. At a
 * lower priority the thread still gets every core the main thread does not
 * use, so the whole job is not slower (the main job was a little faster,
 * 6.9 to 7.05 s against 7.4 to 7.65 s; docs/scale-out.md, 'One machine').
 *
 * Nor is the check slower beside other people's work, although the thread
 * itself then gets almost nothing: with the kernel's autogroups (on by
 * default, and on here) CPU time is shared between sessions first, and the
 * session's share on the thread's core is weighted by the thread's nice
 * value, so it gives way to other sessions' processes too (measured at a
 * load average of 8 on 2 cores: a spinning thread at nice 19 got under
 * 0.05 s of CPU in 3 s, at nice 0 0.8 to 1.1 s), but its session's share
 * goes to its main thread instead (the session's total CPU was the same,
 * 1.5 to 2.0 s against 1.6 to 1.8 s). The bench's ceiling (two processes
 * started from one session) shares one session's time too. Measured at a
 * load average of 13 on 2 cores,
 * `check --swarm-only --seeds 10000 --workers 2` took 9.4 to 10.9 s with
 * the thread at nice 19 and 11.3 to 13.0 s at nice 0, alternately: a busy
 * session gains no time from a second thread at normal priority, and the
 * thread's own start-up and compiler are then pure cost. What a thread
 * starved there costs is the piece it holds when the rest is done: the main
 * thread runs such a seed piece itself (check-job.ts).
 *
 * Elsewhere (macOS, Windows) the nice value is the whole process's, so this
 * does nothing there. Evaluated on import, before the rest of the thread's
 * code is compiled: thread-task.ts imports it first.
 */
import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** The nice value of a `check` worker thread (0 is normal, 19 the lowest priority). */
export const WORKER_THREAD_NICE = 19;

/** Lowers the calling thread's priority, if it is a worker thread on Linux; true when it did. */
export function lowerWorkerThreadPriority(): boolean {
  if (isMainThread || process.platform !== 'linux') return false;
  try {
    setPriority(WORKER_THREAD_NICE);
    return true;
  } catch {
    // A sandbox that forbids it leaves the thread at normal priority: slower first answers, same results.
    return false;
  }
}

lowerWorkerThreadPriority();
