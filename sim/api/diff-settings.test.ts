/**
 * diff takes the world's settings as explore does: a change to a rule that
 * reads the clock (a retry window) shows no difference in a world without
 * one, and its first difference in a world with one.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-cli.ts';
import { diff } from './commands.ts';
import retryWindow from '../../properties/rule-api/retry-window.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-diff-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('diff with the world settings', () => {
  it('a retry window differs from fail-closed only in a world with a clock', async () => {
    const without = await runCli('diff', 'fail-closed', 'properties/rule-api/retry-window.ts', '--engines', '1', '--json', '--out', dir);
    expect(JSON.parse(without.out[0])).toMatchObject({ differ: false, complete: true });
    const withClock = await runCli('diff', 'fail-closed', 'properties/rule-api/retry-window.ts', '--engines', '1', '--ticks', '3', '--json', '--out', dir);
    expect(withClock.code).toBe(1);
    expect(JSON.parse(withClock.out[0])).toMatchObject({ differ: true });
  });
  it('the library takes them too', async () => {
    expect(await diff({ old: 'fail-closed', new: retryWindow, engines: 1, ticks: 3, out: dir })).toMatchObject({ differ: true });
  });
  it('a setting that needs another is refused as on explore', async () => {
    const r = await runCli('diff', 'fail-closed', 'fresh-cycle', '--lease', '2');
    expect([r.code, r.err[0]]).toEqual([2, expect.stringContaining('--lease needs a clock') as string]);
  });
});
