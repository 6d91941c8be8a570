/**
 * One `check` on N workers (`--workers N`, N > 1): its small worlds and its
 * seeds are one job on one pool of N - 1 worker threads plus the main thread,
 * all taking from one shared queue (job-queue.ts). The main thread searches
 * worlds first (the suite's first world, then the heaviest first: it runs at
 * normal priority and starts at once) and then runs seeds (in small chunks,
 * between which its event loop takes the threads' results); a thread runs
 * seeds first and then searches worlds from the light end. Under
 * `--stop-on-first` everyone takes worlds in suite order first (the answer
 * is the first violating world, then the first violating seed). So the swarm runs
 * while the suite runs, every core works until the queue is empty, and each
 * thread warms up its explorer or its seed runner, not both, where it can
 * (docs/performance.md, 'The main job').
 *
 * When the queue is empty, the main thread runs again what a thread still
 * holds and may not get CPU for (thread-pieces.ts): a seed piece at once, a
 * world after a quarter second without a result; the first result of
 * either is kept.
 *
 * The result is the one-thread check's whatever runs where: worlds are kept
 * by their place in the suite and given out (`onWorld`) as a prefix of it;
 * seed results merge order-independently (pool.ts). Under `--stop-on-first`
 * a violating world ends the worlds after it (their searches stop), as on
 * one thread; an interrupt stops the handing out and the searches running,
 * and the job waits at most INTERRUPT_WAIT_MS (thread-pieces.ts) for what
 * the threads hold.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { BOUNDS_DEFAULT, fixedOptions, mergeShards, type ShardResult } from '../check.ts';
import { COVERED_SEEDS, coveringRows, type CoveringRowsData } from '../outbox/swarm-coverage.ts';
import { interruption } from '../interrupt.ts';
import { SUITE_STATES_MAX, type SmallWorldResult } from '../small-worlds.ts';
import { readWatch, watchBuffer } from '../watch.ts';
import { endedLine } from '../watch-lines.ts';
import { UsageError } from '../usage-error.ts';
import { runTask } from './check-task.ts';
import { JobQueue, MAIN_CHUNK_SEEDS, type JobPiece } from './job-queue.ts';
import { noteSeeds, noteWorld, worldClaim, worldCutStop, worldStop, type JobMessage, type JobSpec, type JobThreadTask } from './job-thread.ts';
import { endJobPool, jobPool } from './kept-pools.ts';
import { INTERRUPT_WAIT_MS, ThreadPieces, WORLD_BACKUP_AFTER_MS } from './thread-pieces.ts';

/** The caller's clock and hooks. */
export interface JobHooks {
  /** Seconds since some start (the CLI's clock); the threads read none. */
  now: () => number;
  /** A trace path as the command that replays it. */
  replayCommand: (path: string) => string;
  /**
   * Searches world `index` on this thread, stopping when `stopReason` says;
   * also what a thread's failed search is answered with. `claim`, given when
   * a thread searches the world too, is `SuiteRun.claim`: asked before the
   * search writes its traces.
   */
  searchHere: (index: number, stopReason: () => string | null, claim?: () => boolean) => SmallWorldResult;
  /** Each world's result, in suite order, as soon as it and every world before it are searched. */
  onWorld?: (index: number, r: SmallWorldResult) => void;
  /** Every world of the suite is searched (or the suite stopped): its seconds; true ends the seeds (none more is handed out). */
  onSuiteDone?: (seconds: number) => boolean;
  /** Seeds run so far. */
  onSeeds?: (done: number) => void;
  /** Each seed chunk's result that holds a counterexample, as it arrives. */
  onViolation?: (r: ShardResult) => void;
  /** False: an interrupt does not stop the job (a caller that reads its result as a whole verdict: compare). Default true. */
  interruptible?: boolean;
}

/**
 * A worker thread that ended under a task (the pool's "worker exited with
 * code N") was ended by user code: a rule file's decision that called
 * `process.exit` ends the thread, not the process. That is bad input, one
 * line naming the decision from the thread's watch slot (watch-lines.ts),
 * exit 2, not an internal error with a stack; anything else is passed on.
 */
function threadEnded(err: unknown): unknown {
  const exited = err instanceof Error ? /^worker exited with code:? ?(-?\d+)/.exec(err.message) : null;
  if (exited === null) return err;
  const watch = watchBuffer();
  return new UsageError(endedLine(watch === null ? [] : readWatch(watch), Number(exited[1])));
}

/** What a job found: the worlds searched (a prefix of the suite), the seeds' merged result, the suite's seconds. */
export interface JobResult {
  worlds: SmallWorldResult[];
  /** Worlds searched past the prefix given out (an interrupt or `--stop-on-first` ended the suite first): not reported, but their traces were written. */
  beyond: SmallWorldResult[];
  swarm: ShardResult;
  suiteSeconds: number;
  /**
   * Settles when the pool's threads have ended. Ending a thread needs that
   * thread to run, and a lowest-priority one on a busy machine took 2.5 to
   * 6.7 s to end after the job was done
   * (docs/performance.md, 'On a busy machine'): the caller reports first
   * and waits for this after.
   */
  threadsEnded: Promise<void>;
}

/** The covering rows of a plan's seeds, as data a thread adopts. */
function coveringRowsOf(plan: NonNullable<JobSpec['plan']>): CoveringRowsData {
  const { rows, block } = coveringRows(fixedOptions(plan));
  return { rows, block };
}

/**
 * Runs `job`'s worlds (handed to threads in `order`, suite indices) and its
 * seeds [from, to) on `job.workers` workers, the main thread one of them.
 */
export async function runCheckJob(job: JobSpec, order: readonly number[], from: number, to: number, hooks: JobHooks): Promise<JobResult> {
  const queue = JobQueue.create(order, from, job.plan === null ? from : to);
  const worlds = job.worlds;
  const start = hooks.now();
  const results: (SmallWorldResult | undefined)[] = new Array<SmallWorldResult | undefined>(worlds.length);
  let given = 0;
  let suiteSeconds: number | null = null;
  const suiteDone = (): void => {
    if (suiteSeconds !== null) return;
    suiteSeconds = hooks.now() - start;
    if (hooks.onSuiteDone?.(suiteSeconds) === true) queue.endSeedsAt(-0x80000000);
  };
  let statesGiven = 0;
  const flush = (): void => {
    const end = (): number => Math.min(worlds.length, queue.worldEnd);
    // The count moves outside the optional call: `hooks.onWorld?.(given++, r)` skips its arguments, the
    // increment with them, when no hook is given, and the loop never ended.
    for (let r = results[given]; given < end() && r !== undefined; r = results[given]) {
      hooks.onWorld?.(given, r);
      given++;
      statesGiven += r.states;
      // The suite's bound of states (small-worlds.ts), counted in suite order as on one thread: the worlds
      // after are not searched, and a search of one that a thread holds stops.
      if (statesGiven >= (job.suiteStatesMax ?? SUITE_STATES_MAX)) queue.endWorldsAt(given);
    }
    if (given >= end()) suiteDone();
  };
  const started = new Map<number, number>();
  const world = (index: number, r: SmallWorldResult): void => {
    noteWorld(queue, job, index, r);
    if (index >= queue.worldEnd) return;
    results[index] = r;
    flush();
  };
  const seedResults: ShardResult[] = [];
  let seedsDone = 0;
  const seeds = (r: ShardResult): void => {
    noteSeeds(queue, job, r);
    seedResults.push(r);
    seedsDone += r.runs;
    hooks.onSeeds?.(seedsDone);
    if (Object.keys(r.first).length > 0 && r.fault === undefined) hooks.onViolation?.(r);
  };
  // The end of the job: every piece the threads took has come back, or was run here instead (or one failed).
  const interrupted = (): boolean => hooks.interruptible !== false && interruption() !== null;
  const threadPieces = new ThreadPieces();
  let failure: { err: unknown } | null = null;
  let wake = (): void => undefined;
  const fail = (err: unknown): void => {
    failure ??= { err: threadEnded(err) };
    queue.stop();
    wake();
  };
  const fromThread = (m: JobMessage): void => {
    if (m.kind === 'world-start' || m.kind === 'seeds-start') {
      if (m.kind === 'world-start') {
        started.set(m.index, hooks.now());
        threadPieces.worldStarted(m.index);
      } else threadPieces.started(m);
      wake();
      return;
    }
    try {
      if (m.kind === 'seeds') {
        // The second result of a piece the main thread also ran is dropped (the same result).
        if (threadPieces.seedsResult(m.from)) seeds(m.result);
        return;
      }
      // The second result of a world the main thread also searched is dropped (the first is kept).
      if (!threadPieces.worldResult(m.index)) return;
      if (m.result === null) {
        // The thread's search threw: search here, where a broken decision ends the check with its trace.
        if (m.index < queue.worldEnd) world(m.index, hooks.searchHere(m.index, worldCutStop(queue, m.index)));
      } else {
        // A thread's world is timed here, from the messages that it started and ended (late when this thread was busy).
        const seconds = hooks.now() - (started.get(m.index) ?? start);
        world(m.index, { ...m.result, seconds, violations: m.result.violations.map((v) => ({ ...v, replay: hooks.replayCommand(v.path) })) });
      }
    } catch (err) {
      fail(err);
    } finally {
      wake();
    }
  };

  flush();
  const threads = job.workers - 1;
  const lent = threads > 0 ? await jobPool(threads, job.plan ?? { rules: job.rules, oldRules: job.oldRules, broker: null, bounds: BOUNDS_DEFAULT }) : null;
  const pool = lent?.pool ?? null;
  let interruptWait: NodeJS.Timeout | null = null;
  let interruptWaitOver = false;
  // An interrupt also wakes the wait for the threads' pieces below, which then waits at most INTERRUPT_WAIT_MS more.
  const watchInterrupt = setInterval(() => {
    if (!interrupted()) return;
    queue.stop();
    wake();
  }, 50);
  const seedsHere = (): JobPiece | null => (job.plan === null ? null : queue.takeSeeds(MAIN_CHUNK_SEEDS));
  // The main thread's next piece: worlds from the front of the order (the suite's first world, then the heaviest;
  // under --stop-on-first suite order), starting at once while the threads still load, then seeds.
  const mainPiece = (): JobPiece | null => queue.takeWorld(true) ?? seedsHere();
  const ports: MessagePort[] = [];
  /**
   * The threads' messages, read while this thread is inside a world search
   * (a search is synchronous: a world of a million states held the event
   * loop for 8-20 s, and a thread's first violating seed waited that long to
   * be printed). Seed results and starts are taken at once, so the answer
   * comes first; a world's result is kept for after the search (a thread
   * whose search threw is answered by a search here, not one inside another).
   */
  const deferred: JobMessage[] = [];
  const drainPorts = (): void => {
    for (const port of ports) {
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
        const message = m.message as JobMessage;
        if (message.kind === 'world') deferred.push(message);
        else fromThread(message);
      }
    }
  };
  /** `worldStop`, also reading the threads' messages each time the search looks (every few thousand states). */
  const stopDraining = (index: number): (() => string | null) => {
    const stop = worldStop(queue, index);
    return () => {
      drainPorts();
      return stop();
    };
  };
  let mainTaken = 0;
  let threadsEnded: Promise<void> = Promise.resolve();
  let done = false;
  try {
    // Built here (while the threads start), for every thread: a thread runs the first seeds, and would build them cold.
    const covering = pool !== null && job.plan !== null && from <= COVERED_SEEDS && to > Math.max(from, 1) ? coveringRowsOf(job.plan) : undefined;
    for (let t = 0; t < threads && pool !== null; t++) {
      const { port1, port2 } = new MessageChannel();
      ports.push(port1);
      port1.on('message', fromThread);
      const task: JobThreadTask = { job, queue: queue.buffer, port: port2, watch: watchBuffer(), ...(covering !== undefined ? { covering } : {}) };
      // Rejects when the thread fails outside a world search (a seed chunk that threw), and when the pool is destroyed at the end.
      pool.run(task, { transferList: [port2] }).catch(fail);
    }
    for (;;) {
      if (interrupted()) queue.stop();
      const piece = failure === null ? mainPiece() : null;
      if (piece === null) break;
      mainTaken++;
      if (piece.kind === 'seeds') seeds(await runTask({ plan: job.plan as NonNullable<JobSpec['plan']>, from: piece.from, to: piece.to, ...(job.stopOnFirst ? { stopOnViolation: true } : {}) }));
      else {
        world(piece.index, hooks.searchHere(piece.index, stopDraining(piece.index)));
        for (const m of deferred.splice(0)) fromThread(m);
      }
      // A turn of the event loop: the threads' results come in, and a signal's handler records an interrupt.
      await yieldToLoop();
    }
    // The queue hands out nothing more: wait for the pieces the threads took, not for a thread still starting
    // (a check that ends at once, --stop-on-first at an early seed, does not wait for a thread to load its code),
    // nor for a world a thread holds that a violating world before it cut off (its result is not kept).
    // A seed piece a thread still holds runs here meanwhile (a thread at the lowest priority may get no CPU on a
    // busy machine: thread-pieces.ts); the first of its two results is kept.
    // After an interrupt, a piece a thread has not given back within INTERRUPT_WAIT_MS is left out of the report
    // (a timer, not the caller's clock, which a test may stop).
    // A world cut off is given up by claiming it (job-thread.ts, `worldClaim`): a thread that claimed it first
    // is writing its traces and is waited for.
    const giveUp = (index: number): boolean => queue.claimWorldDone(index);
    while (failure === null && threadPieces.resolved + threadPieces.cutWorlds(queue.worldEnd, giveUp) < queue.taken - mainTaken) {
      if (interrupted()) {
        queue.stop();
        interruptWait ??= setTimeout(() => {
          interruptWaitOver = true;
          wake();
        }, INTERRUPT_WAIT_MS);
        if (interruptWaitOver) break;
      }
      const backup = queue.stopped ? null : threadPieces.takeBackup();
      if (backup === null) {
        // Nothing to run here: wait for a result, and when none comes for a while, search a world a thread holds
        // too (the first search to end is kept, the other stops: thread-pieces.ts).
        const woken = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), WORLD_BACKUP_AFTER_MS);
          wake = () => {
            clearTimeout(timer);
            resolve(true);
          };
        });
        const index = woken || queue.stopped ? null : threadPieces.takeWorldBackup(queue.worldEnd);
        if (index !== null) {
          // Claimed before its traces are written, by a hook that passes the claim on (else after).
          let first: boolean | null = null;
          const claim = worldClaim(queue, index);
          const r = hooks.searchHere(index, stopDraining(index), () => (first = claim()));
          if ((first ?? claim()) && threadPieces.worldResult(index)) world(index, r);
          for (const m of deferred.splice(0)) fromThread(m);
          await yieldToLoop();
        }
        continue;
      }
      const r = await runTask({ plan: job.plan as NonNullable<JobSpec['plan']>, from: backup.from, to: backup.to, ...(job.stopOnFirst ? { stopOnViolation: true } : {}) });
      if (threadPieces.seedsResult(backup.from)) seeds(r);
      await yieldToLoop();
    }
    wake = () => undefined;
    const failed = failure as { err: unknown } | null;
    if (failed !== null) throw failed.err;
    done = true;
  } catch (err) {
    queue.stop();
    throw err;
  } finally {
    clearInterval(watchInterrupt);
    if (interruptWait !== null) clearTimeout(interruptWait);
    for (const p of ports) p.close();
    // A job that failed ends its threads before it throws; one that is done hands their end to the caller
    // (or its pool to the next check, under check --watch: kept-pools.ts).
    if (lent !== null) {
      // A job a save made stale (check --watch) gives its pool back too: its threads stop at their next look
      // at the queue, and the next job, of the saved version, runs on threads already warm.
      const wellEnded = done && (!interrupted() || interruption() === 'save');
      if (done) threadsEnded = endJobPool(lent, wellEnded);
      else await endJobPool(lent, false);
    }
  }
  flush();
  suiteDone();
  const beyond = results.slice(given).filter((r): r is SmallWorldResult => r !== undefined);
  return { worlds: results.slice(0, given) as SmallWorldResult[], beyond, swarm: mergeShards(seedResults), suiteSeconds: suiteSeconds ?? hooks.now() - start, threadsEnded };
}
