/** The size of the tasks handed to worker threads as the seeds run out. */
import { describe, expect, it } from 'vitest';
import { MAIN_CHUNK_SEEDS, THREAD_CHUNK_SEEDS, threadChunk } from './pool.ts';

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
