/**
 * Flags of `check` that say opposite things, or one with nothing to act on,
 * are bad input (one line, exit 2), not one of them silently dropped.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './test-cli.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'check-flags-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('check flags that conflict', () => {
  it.each([
    [['--seeds', '10', '--seed', '3'], '--seed S runs that one seed; --seeds N runs N seeds from 1: give one of them'],
    [['--shard-out', '.tmp-test/never.json'], '--shard-out FILE writes the result of a shard: give --shard I/N too (or leave --shard-out out)'],
    [['--quiet', '--verbose', '--seeds', '5'], '--quiet prints only the summary and --verbose prints more: give one of them'],
    [['--shard', '3/2'], '--shard 3/2: give shard I of N with 1 <= I <= N and N >= 1 (for example 1/2)'],
    [['--shard', '0/0'], '--shard 0/0: give shard I of N with 1 <= I <= N and N >= 1 (for example 1/2)'],
  ])('%j: exit 2 and one line', async (argv, line) => {
    const r = await runCli('check', '--swarm-only', ...argv);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([`outbox-sim: ${line}`]);
    expect(r.out).toEqual([]);
  });
  it('a data file given as a rule file is called one, not a script that does not compile', async () => {
    for (const name of ['rules.json', 'rules.yaml']) {
      const path = join(tmp, name);
      writeFileSync(path, '{"name": "mine"}\n');
      const r = await runCli('check', '--rules', path, '--seeds', '5');
      expect(r.code).toBe(2);
      expect(r.err).toEqual([`outbox-sim: rule file ${path} is not a module: a rule set's decisions are functions, so give a .ts, .mts, .cts, .tsx, .js, .mjs, .cjs, .jsx file whose default export is a rule set (docs/rules.md, 'Writing a rule set')`]);
    }
  });
  it('a folder given as a rule file is called a folder', async () => {
    const r = await runCli('check', '--rules', './properties/', '--seeds', '5');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['outbox-sim: rule file ./properties/ is a folder; give the path of a rule file in it (a .ts or .js file whose default export is a rule set)']);
  });
});

describe('--property at-most-once', () => {
  it('under a fixed broker mode that keeps no log: exit 2, one line (it could never fail)', async () => {
    const r = await runCli('check', '--swarm-only', '--seeds', '5', '--property', 'at-most-once', '--broker', 'id-ok');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(["outbox-sim: --property at-most-once reads the broker's log of accepted POSTs, which only --broker log keeps: under --broker id-ok it could never fail; add --broker log"]);
  });
  it('explore under its default broker (id-ok) likewise: before, it called the world proved', async () => {
    const r = await runCli('explore', '--property', 'at-most-once', '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(["outbox-sim: --property at-most-once reads the broker's log of accepted POSTs, which only --broker log keeps: under --broker id-ok it could never fail; add --broker log"]);
    expect((await runCli('explore', '--property', 'at-most-once', '--broker', 'log', '--max-states', '3000', '--quiet', '--out', tmp)).code).toBe(1);
  });
  it('with --broker log, or the broker drawn per seed, it runs', async () => {
    expect((await runCli('check', '--swarm-only', '--seeds', '5', '--property', 'at-most-once', '--broker', 'log', '--json', '--out', tmp)).code).not.toBe(2);
    expect((await runCli('check', '--swarm-only', '--seeds', '5', '--property', 'at-most-once', '--json', '--out', tmp)).code).not.toBe(2);
  });
  it('without --broker the seeds run under log, so the property can fail there (before: drawn modes kept no log, and 1,000 seeds were clean)', async () => {
    for (const only of [['--seeds', '20'], ['--seed', '16']]) {
      const r = await runCli('check', '--swarm-only', ...only, '--property', 'at-most-once', '--json', '--out', tmp);
      expect(r.code).toBe(1);
      expect((JSON.parse(r.out.join('\n')) as { violations: { property: string }[] }).violations.map((v) => v.property)).toEqual(['at-most-once']);
    }
    const text = await runCli('check', '--swarm-only', '--seeds', '20', '--property', 'at-most-once', '--quiet', '--out', tmp);
    expect(text.out).toContain('RESULT: 1 property violated');
  });
});
