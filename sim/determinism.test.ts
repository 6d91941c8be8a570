/**
 * Determinism is the product: the same seed and options give a byte-identical
 * trace file in two separate processes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'det-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function checkInProcess(out: string): Map<string, string> {
  try {
    execFileSync(process.execPath, ['bin/outbox-sim.mjs', 'check', '--rules', 'fresh-cycle-after-definite', '--seeds', '400', '--json', '--out', out], { encoding: 'utf8' });
  } catch {
    // exit 1: violations found, which is what we want to compare
  }
  return new Map(readdirSync(out).sort().map((f) => [f, readFileSync(join(out, f), 'utf8')]));
}

describe('determinism across processes', () => {
  it('two processes write byte-identical traces', () => {
    const a = checkInProcess(join(tmp, 'a'));
    const b = checkInProcess(join(tmp, 'b'));
    expect(a.size).toBeGreaterThan(0);
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [name, content] of a) expect(b.get(name)).toBe(content);
  });
});
