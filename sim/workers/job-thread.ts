/**
 * A worker thread's side of one `check` job (check-job.ts): it takes pieces
 * from the shared queue itself, seed chunks first (the main thread searches
 * the heavy worlds), then worlds from the light end (under
 * `--stop-on-first`, worlds in suite order first), and posts each result on
 * its port as soon as it has it, until the queue is empty or stopped. Everything in and out is plain data; the
 * thread reads no clock (the main thread times a world from the messages
 * that it started and ended).
 */
import type { MessagePort } from 'node:worker_threads';
import { fixedOptions, type ShardResult } from '../check.ts';
import { adoptCoveringRows, type CoveringRowsData } from '../outbox/swarm-coverage.ts';
import type { SmallWorld, SmallWorldResult } from '../small-worlds.ts';
import { attachWatch } from '../watch.ts';
import { runTask, type PlanSpec } from './check-task.ts';
import type { RulePins } from '../rules-loader.ts';
import { JobQueue, MAIN_CHUNK_SEEDS, threadChunk, type JobPiece } from './job-queue.ts';

/** What every participant of a job shares: the worlds and the seeds' plan (null: no swarm), by rule specs. */
export interface JobSpec {
  rules: string;
  oldRules: string | null;
  /** The code the command loaded for the rule files among them (see `PlanSpec.pins`). */
  pins?: RulePins;
  worlds: readonly SmallWorld[];
  outDir: string;
  symmetry: boolean;
  /** The seeds' plan, or null when the job runs no seed. */
  plan: PlanSpec | null;
  /** Participants (worker threads and the main thread): the chunk size shrinks with it as the seeds run out. */
  workers: number;
  /** `--stop-on-first`: a violating world ends the worlds after it, a violating seed the seeds above it. */
  stopOnFirst: boolean;
  /** The suite's bound of states (`SUITE_STATES_MAX` when absent; smaller in tests). */
  suiteStatesMax?: number;
}

/** A thread's task: the job, the queue's buffer, the port its results go to. */
export interface JobThreadTask {
  job: JobSpec;
  queue: SharedArrayBuffer;
  port: MessagePort;
  /** The supervisor's watch cell (see `watch.ts`), when the command runs under one. */
  watch?: SharedArrayBuffer | null;
  /** The covering rows of the job's seeds, built by the main thread (swarm-coverage.ts, `adoptCoveringRows`), when its seeds include covered ones. */
  covering?: CoveringRowsData;
}

/** A message from a thread: a world started, a world's result (or that its search threw), a seed chunk started (the main thread may run it too: thread-pieces.ts), a seed chunk's result. */
export type JobMessage =
  | { kind: 'world-start'; index: number }
  | { kind: 'world'; index: number; result: SmallWorldResult | null }
  | { kind: 'seeds-start'; from: number; to: number }
  | { kind: 'seeds'; from: number; to: number; result: ShardResult };

/**
 * What a world's result tells the queue: under `--stop-on-first` a violation
 * ends the worlds after it; a world at its bound of states turns the
 * handing out to suite order (the suite's bound of states may end the
 * suite, and the worlds at its front decide when: `JobQueue.bySuiteIndex`).
 */
export function noteWorld(queue: JobQueue, job: JobSpec, index: number, r: SmallWorldResult): void {
  if (job.stopOnFirst && r.violations.length > 0) queue.endWorldsAt(index + 1);
  if (r.stoppedBy === 'max-states') queue.bySuiteIndex();
}

/** What a seed chunk's result tells the queue: a broken decision ends the seeds at it (lower seeds still run, as on one thread); under `--stop-on-first`, a violation ends those above it. */
export function noteSeeds(queue: JobQueue, job: JobSpec, r: ShardResult): void {
  if (r.fault !== undefined) queue.endSeedsAt(r.fault.seed);
  const found = Object.values(r.first);
  if (job.stopOnFirst && found.length > 0) queue.endSeedsAt(Math.min(...found.map((c) => c.seed)) + 1);
}

/** The search of a world stops when the queue says (an interrupt, a failure, a violating world before it, its search ended on another thread). */
export function worldStop(queue: JobQueue, index: number): () => string | null {
  const cut = worldCutStop(queue, index);
  return () => cut() ?? (queue.worldDone(index) ? 'searched on another thread' : null);
}

/** {@link worldStop} but for a search ending elsewhere: that of a world a thread failed to search (it may have claimed it before it failed). */
export function worldCutStop(queue: JobQueue, index: number): () => string | null {
  return () => (queue.stopped ? 'interrupted' : queue.worldCut(index) ? 'an earlier world violated' : null);
}

/**
 * The claim of a world's search that ended on this side (`SuiteRun.claim`):
 * true when it is the first to end and the world is not cut off, so that
 * only one side writes the world's traces, and none for a world whose
 * result is not kept.
 */
export function worldClaim(queue: JobQueue, index: number): () => boolean {
  return () => queue.claimWorldDone(index) && !queue.worldCut(index);
}

/**
 * Seeds of a thread's next chunk: {@link threadChunk}'s, but under
 * `--stop-on-first` the main thread's small chunk, since a chunk runs to its
 * end (or its own first violation) and the answer waits for it.
 */
export function threadSeedChunk(job: Pick<JobSpec, 'stopOnFirst' | 'workers'>, seedsLeft: number): number {
  return job.stopOnFirst ? MAIN_CHUNK_SEEDS : threadChunk(seedsLeft, job.workers);
}

/** Runs the thread's share of a job; resolves with the pieces it ran. */
export async function runJobThread(task: JobThreadTask): Promise<number> {
  if (task.watch) attachWatch(task.watch);
  const { job, port } = task;
  if (task.covering !== undefined && job.plan !== null) adoptCoveringRows(fixedOptions(job.plan), task.covering);
  const queue = JobQueue.attach(task.queue);
  let pieces = 0;
  const seeds = (): JobPiece | null => (job.plan === null ? null : queue.takeSeeds(threadSeedChunk(job, queue.seedsLeft)));
  for (;;) {
    // Seeds first, then worlds from the light end; under --stop-on-first, worlds in suite order first (check-job.ts).
    const piece = job.stopOnFirst ? (queue.takeWorld(true) ?? seeds()) : (seeds() ?? queue.takeWorld(false));
    if (piece === null) return pieces;
    pieces++;
    if (piece.kind === 'world') {
      port.postMessage({ kind: 'world-start', index: piece.index } satisfies JobMessage);
      let result: SmallWorldResult | null;
      try {
        // Imported when a thread first searches a world: a thread that runs only seeds does not load the explorer.
        const { searchWorld } = await import('../small-worlds-task.ts');
        // Claimed when the search ends, before its traces are written: when the main thread's search of it ended
        // first (or the main thread gave the world up), this side writes none, and its result, posted either way,
        // is dropped there. So the main thread waits for a thread that writes traces, and never ends it mid-write.
        result = await searchWorld(job.rules, job.oldRules, job.pins, job.worlds[piece.index], piece.index, job.outDir, job.symmetry, worldStop(queue, piece.index), worldClaim(queue, piece.index));
        noteWorld(queue, job, piece.index, result);
      } catch {
        // The main thread searches it again, and meets the failure there with the trace the one-thread suite gives.
        result = null;
      }
      port.postMessage({ kind: 'world', index: piece.index, result } satisfies JobMessage);
    } else {
      port.postMessage({ kind: 'seeds-start', from: piece.from, to: piece.to } satisfies JobMessage);
      const result = await runTask({ plan: job.plan as PlanSpec, from: piece.from, to: piece.to, ...(job.stopOnFirst ? { stopOnViolation: true } : {}) });
      noteSeeds(queue, job, result);
      port.postMessage({ kind: 'seeds', from: piece.from, to: piece.to, result } satisfies JobMessage);
    }
  }
}
