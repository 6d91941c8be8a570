/**
 * A search cut by its bound with nothing found is not a proof: explore,
 * diff and compare exit 3 there, never 0 (which only a whole search earns).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.ts';

const tmp = mkdtempSync(join(tmpdir(), 'outbox-sim-partial-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const out: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: () => undefined, tty: false });
  return { code, out: out.join('\n') };
}

describe('exit 3: bound reached, nothing found', () => {
  it('explore', async () => {
    expect((await run('explore', '--max-states', '500', '--out', tmp)).code).toBe(3);
  });
  it('diff', async () => {
    const r = await run('diff', 'fail-closed', 'fail-closed', '--max-states', '500', '--out', tmp);
    expect(r.code).toBe(3);
    expect(r.out).toContain('not a proof');
    const whole = await run('diff', 'fail-closed', 'fail-closed', '--engines', '1', '--crashes', '0', '--corruptions', '0', '--operator', '0', '--out', tmp);
    expect(whole.out).toContain('(the whole bounded space)');
    expect(whole.code).toBe(0);
  });
  it('compare', async () => {
    expect((await run('compare', 'fail-closed', '--seeds', '20', '--max-states', '500', '--out', tmp)).code).toBe(3);
    expect((await run('compare', 'fail-closed', '--seeds', '20', '--out', tmp)).code).toBe(0);
  });
});
