import { describe, expect, it } from 'vitest';
import { ThreadPieces } from './thread-pieces.ts';

/** Pieces in which threads started searching `worlds`. */
function holding(...worlds: number[]): ThreadPieces {
  const p = new ThreadPieces();
  for (const w of worlds) p.worldStarted(w);
  return p;
}

describe("the threads' pieces as the main thread hears of them", () => {
  it('gives a seed piece a thread holds to run here, lowest first, each once', () => {
    const p = new ThreadPieces();
    p.started({ from: 251, to: 276 });
    p.started({ from: 1, to: 251 });
    expect(p.takeBackup()).toEqual({ from: 1, to: 251 });
    expect(p.takeBackup()).toEqual({ from: 251, to: 276 });
    expect(p.takeBackup()).toBeNull();
  });

  it('keeps the first result of a piece run twice, whichever side it came from, and counts the piece once', () => {
    const p = new ThreadPieces();
    p.started({ from: 1, to: 251 });
    p.started({ from: 251, to: 276 });
    // Run here first: the thread's later result is the second.
    expect(p.takeBackup()).toEqual({ from: 1, to: 251 });
    expect(p.seedsResult(1)).toBe(true);
    expect(p.seedsResult(1)).toBe(false);
    // The thread's result first: the piece is no longer held, nothing to run here.
    expect(p.seedsResult(251)).toBe(true);
    expect(p.takeBackup()).toBeNull();
    p.worldStarted(0);
    p.worldResult(0);
    expect(p.resolved).toBe(3);
  });

  it('does not hold a piece whose result came before the news that it started', () => {
    const p = new ThreadPieces();
    expect(p.seedsResult(26)).toBe(true);
    p.started({ from: 26, to: 51 });
    expect(p.takeBackup()).toBeNull();
  });

  it('does not wait for a world a thread holds that a violating world before it cut off, and waits for the others', () => {
    const p = holding(1, 4);
    const always = () => true;
    // No world cut yet (a suite of 15 worlds, all kept): both are waited for.
    expect(p.cutWorlds(15, always)).toBe(0);
    // World 2 violated under --stop-on-first: world 1 is still waited for, world 4 is not.
    expect(p.cutWorlds(3, always)).toBe(1);
    // A result that came is resolved, not cut.
    p.worldResult(4);
    expect(p.cutWorlds(3, always)).toBe(0);
    expect(p.resolved).toBe(1);
  });

  it('waits for a cut-off world whose thread claimed it first (it is writing its traces), and gives up each other one once', () => {
    const p = holding(1, 4);
    const asked: number[] = [];
    // World 0 violated: world 1's thread had claimed its search (the give-up fails), world 4's had not.
    const giveUp = (i: number) => {
      asked.push(i);
      return i === 4;
    };
    expect(p.cutWorlds(1, giveUp)).toBe(1);
    expect(p.cutWorlds(1, giveUp)).toBe(1);
    // World 4 is given up once; world 1 is asked again until its result comes.
    expect(asked).toEqual([1, 4, 1]);
    expect(p.worldResult(1)).toBe(true);
    expect(p.cutWorlds(1, giveUp)).toBe(1);
    expect(p.resolved).toBe(1);
  });

  it('gives a world a thread holds to search here, lowest first and before the cut, and keeps the first of its two results', () => {
    const p = new ThreadPieces();
    p.worldStarted(6);
    p.worldStarted(2);
    p.worldStarted(9);
    expect(p.takeWorldBackup(8)).toBe(2);
    expect(p.takeWorldBackup(8)).toBe(6);
    // World 9 is cut off (a world before it violated under --stop-on-first): not searched here, not waited for.
    expect(p.takeWorldBackup(8)).toBeNull();
    expect(p.cutWorlds(8, () => true)).toBe(1);
    // Searched here first: the thread's result is the second, dropped; the piece counts once.
    expect(p.worldResult(2)).toBe(true);
    expect(p.worldResult(2)).toBe(false);
    // The thread's result first: the copy searched here is the second.
    expect(p.worldResult(6)).toBe(true);
    expect(p.worldResult(6)).toBe(false);
    expect(p.resolved).toBe(2);
  });

  it('does not hold a world whose result came before the news that it started', () => {
    const p = new ThreadPieces();
    expect(p.worldResult(3)).toBe(true);
    p.worldStarted(3);
    expect(p.takeWorldBackup(15)).toBeNull();
    expect(p.cutWorlds(0, () => true)).toBe(0);
  });
});
