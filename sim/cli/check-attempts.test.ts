/**
 * `check --attempts N`: every seed's attempts limit fixed (as production
 * runs 10-25 and more), through the threads' plan, a shard and its file,
 * merge, the witnesses of a rule file and the header (the library's
 * `attempts`: sim/api/commands.test.ts); the small worlds keep their own limits, and the header says so.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { smallWorlds } from '../small-worlds.ts';
import { attemptsBanner, smallWorldsCommand } from './check-command.ts';
import { runCli as run } from './test-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'outbox-sim-attempts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The JSON a command printed. */
const json = (out: string[]): { ok: boolean; runs: number; steps: number; smallWorldsNotRun?: { command: string } } => JSON.parse(out.join('\n'));

describe('check --attempts N', () => {
  it('fixes the attempts limit of a seed, and the header says so', async () => {
    const r = await run('check', '--swarm-only', '--seed', '300', '--attempts', '25', '--out', join(tmp, 'one'));
    expect(r.out[0]).toContain('; attempts limit 25 for every seed;');
    expect(r.out[1]).toContain(' attemptsMax=25 ');
    const drawn = await run('check', '--swarm-only', '--seed', '300', '--out', join(tmp, 'one'));
    expect(drawn.out[0]).not.toContain('attempts limit');
    expect(drawn.out[1]).not.toContain(' attemptsMax=25 ');
  });
  it.each([
    ['0', '--attempts must be between 1 and 100, got 0'],
    ['101', '--attempts must be between 1 and 100, got 101'],
    ['x', '--attempts must be a whole number from 1 to 100, got "x"'],
  ])('--attempts %s: exit 2 and one line', async (value, line) => {
    const r = await run('check', '--swarm-only', '--seeds', '5', '--attempts', value);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([`outbox-sim: ${line}`]);
    expect(r.out).toEqual([]);
  });
  it('reaches every seed of each shard, the shard files and the merge: the merged run is the whole run, not the drawn one', async () => {
    const shard = (i: number) => join(tmp, `s${i}.json`);
    for (const i of [1, 2]) expect((await run('check', '--seeds', '40', '--attempts', '25', '--shard', `${i}/2`, '--shard-out', shard(i), '--json', '--out', join(tmp, 'found'))).code).toBe(0);
    for (const i of [1, 2]) expect((JSON.parse(readFileSync(shard(i), 'utf8')) as { spec: { attemptsMax?: number } }).spec.attemptsMax).toBe(25);
    const merged = json((await run('merge', shard(1), shard(2), '--json', '--out', join(tmp, 'merged'))).out);
    const whole = json((await run('check', '--swarm-only', '--seeds', '40', '--attempts', '25', '--json', '--out', join(tmp, 'found'))).out);
    const drawn = json((await run('check', '--swarm-only', '--seeds', '40', '--json', '--out', join(tmp, 'found'))).out);
    expect([merged.ok, merged.runs, merged.steps]).toEqual([true, 40, whole.steps]);
    expect(whole.steps).not.toBe(drawn.steps);
    // The command that runs the small worlds the shards left out names the flag the shards ran with.
    expect(merged.smallWorldsNotRun?.command).toBe('npx outbox-sim check --rules fail-closed --attempts 25 --small-worlds-only');
    // A shard of another limit is another run.
    expect((await run('check', '--seeds', '40', '--attempts', '24', '--shard', '2/2', '--shard-out', shard(3), '--json', '--out', join(tmp, 'found'))).code).toBe(0);
    const mixed = await run('merge', shard(1), shard(3), '--json');
    expect(mixed.code).toBe(2);
    expect(mixed.err.join('\n')).toContain('comes from a different run');
  });
  it('runs the witnesses of a rule file as the seeds ran, with the limit', async () => {
    const rules = join(tmp, 'mine.ts');
    writeFileSync(rules, `import { failClosed, extendRules } from 'outbox-sim';\nexport default extendRules(failClosed, { name: 'mine', summary: 'a copy' });\n`);
    const r = await run('check', '--rules', rules, '--swarm-only', '--seeds', '30', '--attempts', '30', '--no-upgrade', '--json', '--out', join(tmp, 'found'));
    expect([r.code, r.err]).toEqual([0, []]);
  });
});

describe('the small worlds under --attempts', () => {
  const worlds = smallWorlds(false);
  it('keep their own limits, and the header says so in plain words', () => {
    expect(attemptsBanner(undefined, true, worlds)).toBe('');
    expect(attemptsBanner(25, true, [])).toBe('; attempts limit 25 for every seed');
    expect(attemptsBanner(25, true, worlds)).toBe('; attempts limit 25 for every seed; the small worlds keep their own attempts limits, 1-3, not --attempts 25');
    expect(attemptsBanner(25, false, worlds)).toBe('; the small worlds keep their own attempts limits, 1-3, not --attempts 25');
  });
  it('are run by a command that names the flag as the shards had it', () => {
    expect(smallWorldsCommand({ rules: 'fail-closed', oldRules: null, broker: null, attemptsMax: 12 })).toBe('npx outbox-sim check --rules fail-closed --attempts 12 --small-worlds-only');
  });
});
