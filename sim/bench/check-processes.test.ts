/** The bench's whole-process `check` timings: real processes, timed to their exit; a failed run is an error, not a figure. */
import { describe, expect, it } from 'vitest';
import { checkProcessesSeconds, checkProcessRounds } from './check-processes.ts';

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

  it('fails on a process that exits with an error instead of timing it', async () => {
    await expect(checkProcessesSeconds(1, ['--seeds', 'many'], now)).rejects.toThrow(/exited with 2/);
  }, 60_000);
});
