/**
 * Which priority a pool's `check` worker threads run at: chosen where the
 * pool is made, passed to each thread as its `workerData`, and set by the
 * thread itself on its first import (thread-priority.ts, which says why
 * these values).
 */

/** The nice value of a `check` worker thread under `--stop-on-first` (0 is normal, 19 the lowest priority). */
export const WORKER_THREAD_NICE = 19;

/** What a pool passes its threads as `workerData`: the nice value they run at. */
export interface ThreadPriority {
  nice: number;
}

/** The nice value of the threads of a run: the lowest priority when only its first answer is waited for, else normal. */
export function threadNice(stopOnFirst: boolean): number {
  return stopOnFirst ? WORKER_THREAD_NICE : 0;
}
