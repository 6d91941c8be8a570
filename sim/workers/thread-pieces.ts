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
 * Worlds are not run twice: one can take seconds, and its search would
 * compete with the thread's for the same CPU. But a world a thread holds
 * that an earlier violating world cut off (`--stop-on-first`) is not waited
 * for: its result would not be kept, and on a busy machine the thread may
 * take seconds to reach the look at which its search stops (measured at a
 * load average of 4 to 5: `check --rules fresh-cycle --stop-on-first`
 * printed its answer at 0.9 s and then waited 0.7 to 1.3 s for such a world).
 */

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
  /** Suite indices of the worlds a thread started whose result has not come. */
  private readonly worlds = new Set<number>();
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
    this.worlds.add(index);
  }

  /** World `index`'s result came from its thread. */
  worldResult(index: number): void {
    this.worlds.delete(index);
    this.resolved++;
  }

  /** How many worlds the threads hold at or after suite index `end` (cut off: their results are not kept), not to be waited for. */
  cutWorlds(end: number): number {
    let n = 0;
    for (const index of this.worlds) if (index >= end) n++;
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
