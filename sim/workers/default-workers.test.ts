/** Without --workers, check uses the idle cores for a job worth threads, and one thread otherwise. */
import { describe, expect, it } from 'vitest';
import { loadavg } from 'node:os';
import { DEFAULT_WORKERS_MAX, THREADED_SEEDS_MIN, chooseWorkers, machineLoad } from './default-workers.ts';

const MAIN_JOB = { smallWorlds: true, seeds: 5000, inProcessRules: false };

describe('chooseWorkers', () => {
  it('is the cores for the main job (the suite and the swarm) on an idle machine, capped', () => {
    expect(chooseWorkers(MAIN_JOB, 2, 0).workers).toBe(2);
    expect(chooseWorkers({ smallWorlds: true, seeds: 0, inProcessRules: false }, 4, 0).workers).toBe(4);
    expect(chooseWorkers({ smallWorlds: false, seeds: 10_000, inProcessRules: false }, 64, 0).workers).toBe(DEFAULT_WORKERS_MAX);
    expect(chooseWorkers(MAIN_JOB, 1, 0).workers).toBe(1);
  });
  it('is one for a few seeds alone (a thread costs more than it gives), and for a rule set given as a value', () => {
    expect(chooseWorkers({ smallWorlds: false, seeds: THREADED_SEEDS_MIN - 1, inProcessRules: false }, 2, 0).workers).toBe(1);
    expect(chooseWorkers({ smallWorlds: false, seeds: THREADED_SEEDS_MIN, inProcessRules: false }, 2, 0).workers).toBe(2);
    expect(chooseWorkers({ ...MAIN_JOB, inProcessRules: true }, 2, 0).workers).toBe(1);
  });
  it('is the idle cores, rounded, on a busy machine, and says what load lowered it', () => {
    expect(chooseWorkers(MAIN_JOB, 2, 0.4)).toEqual({ workers: 2, busy: null });
    expect(chooseWorkers(MAIN_JOB, 2, 0.6)).toEqual({ workers: 1, busy: { load: 0.6, cores: 2 } });
    expect(chooseWorkers(MAIN_JOB, 2, 7.5)).toEqual({ workers: 1, busy: { load: 7.5, cores: 2 } });
    expect(chooseWorkers(MAIN_JOB, 8, 3.2)).toEqual({ workers: 5, busy: { load: 3.2, cores: 8 } });
    expect(chooseWorkers(MAIN_JOB, 64, 10)).toEqual({ workers: DEFAULT_WORKERS_MAX, busy: null });
    // A small job is one thread whatever the load: nothing was lowered.
    expect(chooseWorkers({ ...MAIN_JOB, smallWorlds: false, seeds: 10 }, 2, 5)).toEqual({ workers: 1, busy: null });
  });
  it('reads a load no higher than the one-minute average (the tasks running now bound it on Linux)', () => {
    // The average may be updated between the reads (every 5 s): the load is under the higher of the two.
    const before = loadavg()[0] ?? 0;
    const load = machineLoad();
    const after = loadavg()[0] ?? 0;
    expect(load).toBeGreaterThanOrEqual(0);
    expect(load).toBeLessThanOrEqual(Math.max(before, after));
  });
});
