import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['docs/**/*.test.ts', 'model/**/*.test.ts', 'sim/**/*.test.ts', 'properties/**/*.test.ts', 'traces/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default (cores - 1) keeps CI's 2-core machine to one test file at a time, and its second core idles
    // whenever that file waits on a child process (npm install, a spawned CLI); the main process only collects results.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
