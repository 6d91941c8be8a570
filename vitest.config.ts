import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['docs/**/*.test.ts', 'model/**/*.test.ts', 'sim/**/*.test.ts', 'properties/**/*.test.ts', 'traces/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
