import { describe, expect, it } from 'vitest';
import { memoryGuard } from './memory-guard.ts';

describe('memoryGuard', () => {
  it('gives the caller each reading of the resident set it takes, and stops past the bound', () => {
    const readings: number[] = [];
    const roomy = memoryGuard(1 << 30, (bytes) => readings.push(bytes));
    expect(roomy()).toBeNull();
    expect(roomy(1 << 20)).toBeNull();
    expect(readings).toHaveLength(2);
    for (const r of readings) expect(r).toBeGreaterThan(0);
    const tight = memoryGuard(1, (bytes) => readings.push(bytes));
    expect(tight()).toMatch(/^memory \(resident \d+ MiB, bound --max-memory 1\)$/);
    expect(tight(1 << 20)).toMatch(/MiB more for a table to grow/);
    expect(readings).toHaveLength(4);
  });
});
