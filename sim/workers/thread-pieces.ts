/**
 * The pieces of a check job that worker threads took (check-job.ts), as the
 * main thread hears of them, so that it can end the job without waiting on
 * a thread that does not run. A worker thread runs at the lowest priority
 * (thread-priority.ts): on a busy machine it may take a seed piece and then
 * get no CPU while the main thread does all the rest, and the job would wait
 * for that piece at the end (measured at a load average of 7.7: 0.74 s, a
 * piece of 250 seeds the thread had not started). So when the queue is
 * empty, the main thread runs a seed piece a thread still holds itself, and
 * whichever result comes first is kept; the other is dropped. A seed range's
 * result depends on its seeds only, so the report is the same either way.
 * A world a thread holds is searched here too once the main thread has had
 * nothing else to do for a while ({@link WORLD_BACKUP_AFTER_MS}) and no
 * result came: the first search to end is kept, and the other stops at its
 * next look (job-queue.ts, `claimWorldDone`) and writes no trace (job-thread.ts,
 * `worldClaim`). On a quiet machine the thread
 * ends its world first and the copy here is cut short; on a busy one the
 * thread may get no CPU for tens of seconds. A world a thread holds that an
 * earlier violating world cut off (`--stop-on-first`) is not waited for at
 * all: its result would not be kept; nor, after an interrupt, is a piece a
 * thread has not given back within {@link INTERRUPT_WAIT_MS}. The figures
 * are in docs/performance.md, 'On a busy machine'.
 */

/** How long the main thread waits, with nothing else to do, for a thread's world before it searches that world too. */
export const WORLD_BACKUP_AFTER_MS = 250;

/**
 * How long an interrupted job waits for the pieces threads hold. A thread
 * stops at its next look (within milliseconds when it gets CPU); a starved
 * one may take tens of seconds to get there, and a user who pressed Ctrl-C
 * is not kept waiting for it: the report then leaves out what that thread
 * held (a world not searched, seeds not run), as it leaves out everything
 * the interrupt cut off.
 */
export const INTERRUPT_WAIT_MS = 500;

/** A range of seeds a thread took. */
export interface SeedPiece {
  from: number;
  to: number;
}

export class ThreadPieces {
  /** Seed pieces a thread started whose result has not come, by first seed. */
  private readonly held = new Map<number, number>();
  /** First seeds of the seed pieces whose result is in. */
  private readonly done = new Set<number>();
  /** Suite indices of the worlds a thread started whose result has not come (and that are not searched here too). */
  private readonly worlds = new Set<number>();
  /** Suite indices of the worlds whose result is in (from a thread, or searched here). */
  private readonly worldsDone = new Set<number>();
  /** Suite indices of the cut-off worlds a thread holds that are not waited for ({@link cutWorlds}). */
  private readonly givenUp = new Set<number>();
  /** Pieces the threads took whose result is in (worlds and seed pieces, each once). */
  resolved = 0;

  /** A thread started seeds [from, to). */
  started(piece: SeedPiece): void {
    if (!this.done.has(piece.from)) this.held.set(piece.from, piece.to);
  }

  /** The result of seed piece `from` came (from its thread, or run here): true when it is the first, to be kept; false for the second. */
  seedsResult(from: number): boolean {
    this.held.delete(from);
    if (this.done.has(from)) return false;
    this.done.add(from);
    this.resolved++;
    return true;
  }

  /** A thread started searching world `index`. */
  worldStarted(index: number): void {
    if (!this.worldsDone.has(index)) this.worlds.add(index);
  }

  /** World `index`'s result came (from its thread, or searched here): true when it is the first, to be kept; false for the second. */
  worldResult(index: number): boolean {
    this.worlds.delete(index);
    if (this.worldsDone.has(index)) return false;
    this.worldsDone.add(index);
    this.resolved++;
    return true;
  }

  /** The lowest world a thread holds before suite index `end`, no longer held (it is to be searched here too), or null. */
  takeWorldBackup(end: number): number | null {
    let index: number | null = null;
    for (const i of this.worlds) if (i < end && (index === null || i < index)) index = i;
    if (index !== null) this.worlds.delete(index);
    return index;
  }

  /**
   * How many worlds the threads hold at or after suite index `end` (cut
   * off: their results are not kept) that are not to be waited for: those
   * `giveUp` gives up (once each; false when the thread's search ended first
   * and it is writing the world's traces, so that it is waited for).
   */
  cutWorlds(end: number, giveUp: (index: number) => boolean): number {
    let n = 0;
    for (const index of this.worlds) {
      if (index < end) continue;
      if (!this.givenUp.has(index) && giveUp(index)) this.givenUp.add(index);
      if (this.givenUp.has(index)) n++;
    }
    return n;
  }

  /** The lowest seed piece a thread holds, no longer held (it is to run here), or null. */
  takeBackup(): SeedPiece | null {
    let from: number | null = null;
    for (const f of this.held.keys()) if (from === null || f < from) from = f;
    if (from === null) return null;
    const to = this.held.get(from) as number;
    this.held.delete(from);
    return { from, to };
  }
}
