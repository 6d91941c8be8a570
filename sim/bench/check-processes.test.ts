/** The bench's whole-process `check` timings: real processes, timed to their exit; a failed run is an error, not a figure. */
import { describe, expect, it } from 'vitest';
import { ceilingRatio, checkProcessesSeconds, checkProcessRounds, cpuRatio, workersAndCeiling } from './check-processes.ts';

const now = (): number => Number(process.hrtime.bigint()) / 1e9;

describe('check timed as whole processes', () => {
  it('times one process with 1 worker and one with 2 in each round', async () => {
    const r = await checkProcessRounds(20, 1, now);
    expect(r.seeds).toBe(20);
    expect(r.one).toHaveLength(1);
    expect(r.two).toHaveLength(1);
    // A process loads the CLI before its first seed: never a zero or negative time.
    for (const s of [...r.one, ...r.two]) expect(s).toBeGreaterThan(0.05);
  }, 60_000);

  it('times 1 worker, 2 workers and two 1-worker processes together in each round, and reads the ceiling from them', async () => {
    const r = await workersAndCeiling(['--swarm-only', '--seeds', '20'], 2, now);
    expect([r.one.length, r.two.length, r.pair.length]).toEqual([2, 2, 2]);
    for (const s of [...r.one, ...r.two, ...r.pair]) expect(s).toBeGreaterThan(0.05);
    if (process.platform === 'linux') {
      // Each run's own CPU time: a process loads the CLI (more than 0.05 s of CPU), and two processes use more than one.
      const cpu = r.cpu as NonNullable<typeof r.cpu>;
      expect([cpu.one.length, cpu.two.length, cpu.pair.length]).toEqual([2, 2, 2]);
      for (const s of [...cpu.one, ...cpu.two]) expect(s).toBeGreaterThan(0.05);
      expect(Math.min(...cpu.pair)).toBeGreaterThan(Math.min(...cpu.one));
    }
    // Best of each: 1 worker 4 s, 2 workers 2.5 s (1.6x), two processes 4.4 s (ceiling 2 x 4 / 4.4).
    const c = ceilingRatio({ one: [4, 4.2], two: [2.6, 2.5], pair: [4.4, 4.6] });
    expect(c.ratio).toBeCloseTo(1.6, 6);
    expect(c.ceiling).toBeCloseTo(8 / 4.4, 6);
    expect(c.ofCeiling).toBeCloseTo(1.6 / (8 / 4.4), 6);
    // CPU: 1 worker 5.6 s at least, 2 workers 7.0 s at least (the second thread's start-up and compiler): 0.8.
    const cpu = cpuRatio({ one: [4], two: [2.5], pair: [4.4], cpu: { one: [5.8, 5.6], two: [7.0, 7.2], pair: [11.5] } });
    expect(cpu).toMatchObject({ one: 5.6, two: 7.0 });
    expect(cpu?.ratio).toBeCloseTo(0.8, 6);
    expect(cpuRatio({ one: [4], two: [2.5], pair: [4.4] })).toBeNull();
  }, 60_000);

  it('fails on a process that exits with an error instead of timing it', async () => {
    await expect(checkProcessesSeconds(1, ['--seeds', 'many'], now)).rejects.toThrow(/exited with 2/);
  }, 60_000);
});
