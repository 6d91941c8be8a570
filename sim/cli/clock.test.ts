/**
 * The clock is handed in: nothing under model/ or sim/ (the benchmarks
 * aside, and tests) reads a wall clock or Math.random, not even in a
 * comment; the entry points in bin/ read the clock and pass it in
 * (bin/clock.mjs), and a summary's seconds come from it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elapsedSeconds, startClock } from './clock.ts';

const CLOCK_READ = /Math\.random|Date\.now|new Date\(|performance\.now|process\.hrtime/;

function sources(top: string): string[] {
  return readdirSync(top, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(top, f))
    .filter((f) => !f.startsWith(join('sim', 'bench')));
}

describe('the wall clock', () => {
  it('is read by no source under model/ or sim/ (outside sim/bench)', () => {
    const readers = [...sources('model'), ...sources('sim')].flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (CLOCK_READ.test(line) ? [`${f}:${i + 1}`] : [])),
    );
    expect(readers).toEqual([]);
  });
  it('is the one the Io hands in; without one, no time passes', () => {
    let t = 10;
    const io = { out: () => undefined, err: () => undefined, tty: false, now: () => t };
    const c = startClock(io);
    t = 12.5;
    expect(elapsedSeconds(c)).toBe(2.5);
    expect(elapsedSeconds(startClock({ ...io, now: undefined }))).toBe(0);
  });
});
