/** Without --workers, check uses the cores for a job worth threads, and one thread otherwise. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKERS_MAX, THREADED_SEEDS_MIN, defaultWorkers } from './default-workers.ts';

describe('defaultWorkers', () => {
  it('is the cores for the main job (the suite and the swarm), capped', () => {
    expect(defaultWorkers({ smallWorlds: true, seeds: 5000, inProcessRules: false }, 2)).toBe(2);
    expect(defaultWorkers({ smallWorlds: true, seeds: 0, inProcessRules: false }, 4)).toBe(4);
    expect(defaultWorkers({ smallWorlds: false, seeds: 10_000, inProcessRules: false }, 64)).toBe(DEFAULT_WORKERS_MAX);
    expect(defaultWorkers({ smallWorlds: true, seeds: 5000, inProcessRules: false }, 1)).toBe(1);
  });
  it('is one for a few seeds alone (a thread costs more than it gives), and for a rule set given as a value', () => {
    expect(defaultWorkers({ smallWorlds: false, seeds: THREADED_SEEDS_MIN - 1, inProcessRules: false }, 2)).toBe(1);
    expect(defaultWorkers({ smallWorlds: false, seeds: THREADED_SEEDS_MIN, inProcessRules: false }, 2)).toBe(2);
    expect(defaultWorkers({ smallWorlds: true, seeds: 5000, inProcessRules: true }, 2)).toBe(1);
  });
});
