/**
 * `explore --ticks N --lease N`: a searched world with a logical clock and
 * leases (docs/rules.md, 'Time'); a lease without a clock is bad input.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './test-cli.ts';

/** The command's exit code, its output as one text, and its error lines. */
async function run(...argv: string[]) {
  const r = await runCli(...argv);
  return { code: r.code, out: r.out.join('\n'), err: r.err };
}

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'explore-clock-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('explore --ticks --lease', () => {
  it('searches fail-closed in a world with leases: clean, its own state count (on packed states, as on the object system)', async () => {
    // Every state, and one per class of states equal up to renaming pids (the claims' lease ends kept: a
    // canonical form that dropped them merged states a lease tells apart and hid the unfenced flaw below).
    for (const [flags, states, transitions] of [[['--no-symmetry'], 3498, 10721], [[], 1785, 5425]] as const) {
      const r = await run('explore', '--bodies', '1', '--crashes', '0', '--ticks', '2', '--lease', '1', ...flags, '--json', '--out', tmp);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out) as { states: number; transitions: number; complete: boolean; violations: unknown[] };
      expect([j.complete, j.states, j.transitions, j.violations]).toEqual([true, states, transitions, []]);
    }
  });
  it('finds the unfenced lease\'s parked-stays-parked (exit 1)', async () => {
    const r = await run('explore', '--rules', 'properties/rule-api/lease-unfenced.ts', '--bodies', '1', '--crashes', '0', '--ticks', '2', '--lease', '1', '--continue', '--out', tmp);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/clock to tick 2, lease 1/);
    expect(r.out).toMatch(/RESULT: parked-stays-parked violated/);
  });
  it('a lease without a clock is one line and exit 2', async () => {
    const r = await run('explore', '--lease', '1');
    expect([r.code, r.err]).toEqual([2, ['outbox-sim: --lease needs a clock: give --ticks N too']]);
  });
});
