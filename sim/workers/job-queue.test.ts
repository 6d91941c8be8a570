/**
 * The shared queue of a check job: worker threads take worlds from the
 * heavy end, the main thread from the light end, each world once; seeds go
 * out in consecutive chunks; `--stop-on-first` and a stop end the handing
 * out; and a second view of the same buffer (another thread's) sees it all.
 */
import { describe, expect, it } from 'vitest';
import { JobQueue, MAIN_CHUNK_SEEDS, THREAD_CHUNK_SEEDS, threadChunk } from './job-queue.ts';
import { threadSeedChunk, worldClaim, worldCutStop, worldStop } from './job-thread.ts';

describe('the job queue', () => {
  it('gives each world once: the front in order, the back from the end', () => {
    const q = JobQueue.create([4, 0, 3, 1, 2], 1, 1);
    const other = JobQueue.attach(q.buffer);
    expect(q.takeWorld(true)).toEqual({ kind: 'world', index: 4 });
    expect(other.takeWorld(false)).toEqual({ kind: 'world', index: 2 });
    expect(other.takeWorld(true)).toEqual({ kind: 'world', index: 0 });
    expect(q.takeWorld(false)).toEqual({ kind: 'world', index: 1 });
    expect(q.takeWorld(false)).toEqual({ kind: 'world', index: 3 });
    expect(q.takeWorld(true)).toBeNull();
    expect(q.takeWorld(false)).toBeNull();
  });

  it('once a world met its bound of states, every thread takes the lowest suite index left, from either end', () => {
    const q = JobQueue.create([4, 0, 3, 1, 2], 1, 1);
    const other = JobQueue.attach(q.buffer);
    expect(q.takeWorld(true)).toEqual({ kind: 'world', index: 4 });
    other.bySuiteIndex();
    expect(other.takeWorld(false)).toEqual({ kind: 'world', index: 0 });
    expect(q.takeWorld(true)).toEqual({ kind: 'world', index: 1 });
    expect(other.takeWorld(false)).toEqual({ kind: 'world', index: 2 });
    expect(q.takeWorld(false)).toEqual({ kind: 'world', index: 3 });
    expect(q.takeWorld(true)).toBeNull();
  });

  it('hands out no world at or after the end a violation set, and cuts the searches of those running', () => {
    const q = JobQueue.create([0, 1, 2, 3], 1, 1);
    expect(q.takeWorld(true)).toEqual({ kind: 'world', index: 0 });
    expect(q.takeWorld(false)).toEqual({ kind: 'world', index: 3 });
    JobQueue.attach(q.buffer).endWorldsAt(2);
    expect(q.worldEnd).toBe(2);
    expect(q.worldCut(3)).toBe(true);
    expect(q.worldCut(1)).toBe(false);
    // A later, higher end changes nothing.
    q.endWorldsAt(3);
    expect(q.worldEnd).toBe(2);
    expect(q.takeWorld(false)).toEqual({ kind: 'world', index: 1 });
    expect(q.takeWorld(true)).toBeNull();
  });

  it('hands out seeds in consecutive chunks up to the end, which a fault or a violation lowers', () => {
    const q = JobQueue.create([], 10, 100);
    expect(q.takeSeeds(25)).toEqual({ kind: 'seeds', from: 10, to: 35 });
    expect(JobQueue.attach(q.buffer).takeSeeds(25)).toEqual({ kind: 'seeds', from: 35, to: 60 });
    expect(q.seedsLeft).toBe(40);
    q.endSeedsAt(70);
    expect(q.takeSeeds(25)).toEqual({ kind: 'seeds', from: 60, to: 70 });
    expect(q.takeSeeds(25)).toBeNull();
    expect(q.seedsLeft).toBe(0);
  });

  it('hands out nothing once stopped, and every search is cut', () => {
    const q = JobQueue.create([0, 1], 1, 100);
    JobQueue.attach(q.buffer).stop();
    expect([q.stopped, q.takeWorld(true), q.takeWorld(false), q.takeSeeds(10), q.worldCut(0)]).toEqual([true, null, null, null, true]);
  });
});

describe('threadChunk', () => {
  it('is the full chunk while much is left', () => {
    expect(threadChunk(20_000, 2)).toBe(THREAD_CHUNK_SEEDS);
  });
  it('shrinks with what is left, so that no thread holds large tasks at the end', () => {
    expect(threadChunk(600, 2)).toBe(75);
    expect(threadChunk(600, 3)).toBe(50);
  });
  it('never goes below the main thread chunk', () => {
    expect(threadChunk(40, 2)).toBe(MAIN_CHUNK_SEEDS);
    expect(threadChunk(1, 8)).toBe(MAIN_CHUNK_SEEDS);
  });
});

describe('threadSeedChunk', () => {
  it('is threadChunk, but the small chunk under --stop-on-first (the answer waits for a chunk a thread holds)', () => {
    expect(threadSeedChunk({ stopOnFirst: false, workers: 2 }, 20_000)).toBe(THREAD_CHUNK_SEEDS);
    expect(threadSeedChunk({ stopOnFirst: true, workers: 2 }, 20_000)).toBe(MAIN_CHUNK_SEEDS);
  });
});

describe("a world's search ended somewhere", () => {
  it('is claimed once, by whichever side ends first, seen from every view, and stops the other side', () => {
    const q = JobQueue.create([2, 0, 1], 1, 1);
    const other = JobQueue.attach(q.buffer);
    const stop = worldStop(q, 0);
    expect(q.worldDone(0)).toBe(false);
    expect(stop()).toBeNull();
    expect(other.claimWorldDone(0)).toBe(true);
    expect(q.claimWorldDone(0)).toBe(false);
    expect(q.worldDone(0)).toBe(true);
    expect(stop()).toBe('searched on another thread');
    // The others are untouched, the last one too (the flags sit after the order).
    expect(q.worldDone(1)).toBe(false);
    expect(q.worldDone(2)).toBe(false);
    expect(q.claimWorldDone(2)).toBe(true);
    expect(q.takeWorld(true)).toEqual({ kind: 'world', index: 2 });
  });

  it("is claimed for writing traces by the first side only, and by none once the world is cut off; a failed thread's world is searched again whoever claimed it", () => {
    const q = JobQueue.create([0, 1, 2], 1, 1);
    const other = JobQueue.attach(q.buffer);
    expect(worldClaim(q, 0)()).toBe(true);
    expect(worldClaim(other, 0)()).toBe(false);
    // The world is claimed (its search on a thread may have ended before the thread failed): a search here still runs.
    expect(worldStop(q, 0)()).toBe('searched on another thread');
    expect(worldCutStop(q, 0)()).toBeNull();
    // World 0 violated under --stop-on-first: a search of world 1 that ends now writes no trace, and is stopped.
    q.endWorldsAt(1);
    expect(worldClaim(q, 1)()).toBe(false);
    expect(worldCutStop(q, 1)()).toBe('an earlier world violated');
  });
});
