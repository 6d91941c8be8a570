/**
 * End to end, as a user has it: a rule file in a folder of their own outside
 * this checkout (no package.json) that imports 'outbox-sim', run through
 * check (1 and 2 workers), explore, compare, diff, replay and recheck by the
 * real command (`node bin/outbox-sim.mjs`, started in that folder). Traces
 * record the file's path relative to that folder, and their replay commands
 * pass it with --rules.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTrace } from '../../traces/read.ts';

const BIN = resolve('bin/outbox-sim.mjs');
const home = mkdtempSync(join(tmpdir(), 'outbox-sim-e2e-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

writeFileSync(
  join(home, 'flawed.ts'),
  `import { extendRules, freshCycle, type RuleSet } from 'outbox-sim';

// fresh-cycle (which loses bodies) under a name of our own.
const flawed: RuleSet = extendRules(freshCycle, { name: 'my-flawed', summary: 'fresh-cycle, kept in my own repository' });
export default flawed;
`,
);
writeFileSync(
  join(home, 'fixed.ts'),
  `const { extendRules, failClosed } = require('outbox-sim');
module.exports = extendRules(failClosed, { name: 'my-fixed', summary: 'fail-closed, in CommonJS syntax' });
`,
);
writeFileSync(join(home, 'typo.ts'), "import { failClosed } from 'outbox-sim';\n\nexport default { ...failClosed, name: 'typo' \n");

function cli(cwd: string, ...argv: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...argv], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The traces a command wrote into `dir` (relative to the user's folder). */
function traces(dir: string): string[] {
  return readdirSync(join(home, dir))
    .filter((f) => f.endsWith('.trace.jsonl'))
    .sort()
    .map((f) => `${dir}/${f}`);
}

describe('a rule file outside the checkout, through every command', () => {
  it('check finds the flaw, records ./flawed.ts, and prints a replay command that works', () => {
    const r = cli(home, 'check', '--swarm-only', '--rules', './flawed.ts', '--seeds', '300', '--out', 'found');
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toContain('outbox-sim check: rules my-flawed');
    const written = traces('found');
    expect(written.length).toBeGreaterThan(0);
    for (const t of written) {
      expect(readTrace(join(home, t)).header.rules).toMatchObject({ name: 'my-flawed', source: './flawed.ts' });
      expect(r.out).toContain(`replay: npx outbox-sim replay ${t} --rules ./flawed.ts`);
      const replay = cli(home, 'replay', t, '--rules', './flawed.ts');
      expect(replay.out).toContain('replays identically');
      expect(replay.code).toBe(0);
    }
  });

  it('check --workers 2 loads it in the worker thread too, with the same traces', () => {
    expect(cli(home, 'check', '--swarm-only', '--rules', './flawed.ts', '--seeds', '600', '--json', '--out', 'w1').code).toBe(1);
    const two = cli(home, 'check', '--swarm-only', '--rules', './flawed.ts', '--seeds', '600', '--workers', '2', '--json', '--out', 'w2');
    expect(two.err).toBe('');
    expect(two.code).toBe(1);
    expect(JSON.parse(two.out)).toMatchObject({ rules: 'my-flawed', runs: 600 });
    expect(traces('w2').map((t) => t.slice(3))).toEqual(traces('w1').map((t) => t.slice(3)));
  });

  it('explore searches it', () => {
    const r = cli(home, 'explore', '--rules', './flawed.ts', '--max-states', '3000', '--out', 'explored');
    expect(r.err).toBe('');
    expect([0, 1, 3]).toContain(r.code);
    expect(r.out).toContain('outbox-sim explore: rules my-flawed');
  });

  it('compare tables it beside a catalog rule set', () => {
    const r = cli(home, 'compare', 'fail-closed', './flawed.ts', '--seeds', '100', '--max-states', '2000', '--out', 'compared');
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toContain('my-flawed');
    expect(r.out).toMatch(/VIOLATED: trace \w+, \d+ steps {2}\(npx outbox-sim replay compared\/\w+\.trace\.jsonl --rules \.\/flawed\.ts\)/);
  });

  it('diff finds where it differs from fail-closed, and its side replays with --rules', () => {
    const r = cli(home, 'diff', 'fail-closed', './flawed.ts', '--engines', '1', '--json', '--out', 'diffed');
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out) as { differ: boolean; new: { path: string } };
    expect(j.differ).toBe(true);
    expect(cli(home, 'replay', j.new.path, '--rules', './flawed.ts').code).toBe(0);
  });

  it('replay without --rules runs nothing and says how to point at the file', () => {
    const [t] = traces('found');
    const r = cli(home, 'replay', t);
    expect(r.code).toBe(2);
    expect(r.err).toContain('recorded with the rule file ./flawed.ts');
    expect(r.err).toContain('pass that file with --rules ./flawed.ts');
  });

  it('replay from another folder: a path that is not there is explained; the right path from there works', () => {
    const elsewhere = join(home, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const [t] = traces('found');
    const missing = cli(elsewhere, 'replay', `../${t}`, '--rules', './flawed.ts');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('rule file ./flawed.ts does not exist; the trace was recorded with ./flawed.ts, relative to the folder it was made in');
    expect(cli(elsewhere, 'replay', `../${t}`, '--rules', '../flawed.ts').code).toBe(0);
  });

  it('recheck re-runs the traces under a user file (CommonJS syntax) and under the flawed one', () => {
    const fixed = cli(home, 'recheck', 'found', '--under', './fixed.ts');
    expect(fixed.err).toBe('');
    expect(fixed.code).toBe(0);
    expect(fixed.out).toContain('under my-fixed');
    expect(fixed.out).toContain('no longer violates');
    const still = cli(home, 'recheck', 'found', '--under', './flawed.ts');
    expect(still.code).toBe(1);
    expect(still.out).toContain('still violates');
  });

  it('a syntax error is one line: file:line:column and the compiler message', () => {
    const r = cli(home, 'check', '--rules', './typo.ts', '--seeds', '1');
    expect(r.code).toBe(2);
    expect(r.err).toBe('outbox-sim: rule file does not compile: ./typo.ts:4:1: Expected "}" but found end of file\n');
  });
});
