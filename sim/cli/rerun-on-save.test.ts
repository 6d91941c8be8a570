/**
 * `check --watch` and `explore --watch`: a run, then another on every save
 * of the rule file or of a file of the user's it imports, each the run a
 * fresh command gives of what the files then hold; a save that does not
 * compile prints its one line and the watch goes on; Ctrl-C ends it with
 * 130, also through the supervised command thread the command line runs a
 * rule file on.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { clearInterrupt, interruption, requestInterrupt } from '../interrupt.ts';
import { runCheck, type CheckFlags } from './check-command.ts';
import { rerunOnSave, watchedSpecs } from './rerun-on-save.ts';
import { runExplore } from './explore-command.ts';
import type { Io } from './io.ts';
import { main } from './main.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => clearInterrupt());

const RULES = `import { extendRules, failClosed } from 'outbox-sim';
import { refusal } from './outcome.ts';
export default extendRules(failClosed, { name: 'watched', summary: 'a 400 classified by a helper file', classify: (r) => (r === 'refused-400' ? refusal : failClosed.classify(r)) });
`;
/** A rule file that imports nothing. */
const CLEAN_ONLY = "import { extendRules, failClosed } from 'outbox-sim';\nexport default extendRules(failClosed, { name: 'bound', summary: 'fail-closed by another name' });\n";
/** The helper the rule file imports: a 400 as a definite refusal (fail-closed's reading), or as delivered (a flaw any few seeds show). */
const HELPER_CLEAN = "export const refusal = 'definite' as const;\n";
const HELPER_FLAWED = "export const refusal = 'confirmed' as const;\n";

/** A rule file `<name>.ts` importing its helper `<name>-outcome.ts` (written clean), in the test's folder. */
function ruleFiles(name: string): { rules: string; helper: string } {
  const rules = join(dir, `${name}.ts`);
  const helper = join(dir, `${name}-outcome.ts`);
  writeFileSync(helper, HELPER_CLEAN);
  writeFileSync(rules, RULES.replace("'./outcome.ts'", `'./${name}-outcome.ts'`));
  return { rules, helper };
}

/** Lines a command wrote, both streams in order. */
function capture(): { io: Io; lines: string[] } {
  const lines: string[] = [];
  return { io: { out: (l) => lines.push(l), err: (l) => lines.push(l), tty: false }, lines };
}

/**
 * `outbox-sim <argv>` as a process of its own: its lines (both streams) as
 * they come, its exit, a signal to send, and `stop`, which kills it if it
 * still runs (a watch runs until it is stopped: a failed expectation must
 * not leave it running).
 */
function cliProcess(argv: readonly string[]): { lines: string[]; exited: Promise<number | null>; kill: (signal: NodeJS.Signals) => void; stop: () => void } {
  const bin = fileURLToPath(new URL('../../bin/outbox-sim.mjs', import.meta.url));
  const child = spawn(process.execPath, [bin, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const take = (chunk: Buffer): void => void lines.push(...chunk.toString().split('\n').filter((l) => l !== ''));
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    lines,
    exited,
    kill: (signal) => void child.kill(signal),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Resolves once `lines` holds `n` lines matching `pattern` (polled; the test's timeout bounds it). */
async function until(lines: string[], pattern: RegExp, n = 1): Promise<void> {
  while (lines.filter((l) => pattern.test(l)).length < n) await new Promise((r) => setTimeout(r, 20));
}

describe('--watch', () => {
  it('refuses without a rule file to follow, and with a shard (one line each, exit 2)', async () => {
    expect(() => watchedSpecs({ rules: 'fail-closed' })).toThrow(/^--watch follows a rule file: give one with --rules/);
    expect(() => watchedSpecs({ rules: './x.ts', shard: '1/2' })).toThrow(/cannot be used with --shard/);
    expect(watchedSpecs({ rules: 'fail-closed', oldRules: './old.ts' })).toEqual(['./old.ts']);
    const { io, lines } = capture();
    expect(await main(['check', '--watch', '--seeds', '3'], io)).toBe(2);
    expect(lines).toEqual(['outbox-sim: --watch follows a rule file: give one with --rules (or --old-rules), for example --rules ./my-rules.ts']);
  });

  it('checks again on each save of an imported file, goes on past a save that does not compile, and ends on Ctrl-C with 130', async () => {
    const { rules, helper } = ruleFiles('rules');
    const { io, lines } = capture();
    const flags: CheckFlags = { rules, watch: true, seeds: '40', swarmOnly: true, quiet: true, out: join(dir, 'traces') };
    const watching = rerunOnSave('check', flags, io, async () => (await runCheck(flags, io)).code, { pollMs: 20 });
    await until(lines, /^watching /);
    expect(lines.filter((l) => l.startsWith('RESULT'))).toEqual(['RESULT: no property violated']);
    expect(lines.at(-1)).toMatch(/^watching .*rules\.ts and 1 file imported for changes \(exit 0 above; Ctrl-C to stop\)$/);

    writeFileSync(helper, HELPER_FLAWED);
    await until(lines, /^watching /, 2);
    expect(lines).toContainEqual(expect.stringMatching(/rules-outcome\.ts changed: checking again$/));
    expect(lines.filter((l) => l.startsWith('RESULT'))).toEqual(['RESULT: no property violated', 'RESULT: 1 property violated']);
    expect(lines.at(-1)).toMatch(/\(exit 1 above; Ctrl-C to stop\)$/);

    // Half-way through an edit of the imported file: the line a command would print, and the watch goes on,
    // still watching the import (the rule file does not compile, so its imports are not known afresh).
    writeFileSync(helper, "export const refusal = 'definite' as const;\nexport const x = (;\n");
    await until(lines, /^watching /, 3);
    expect(lines).toContainEqual(expect.stringMatching(/^outbox-sim: rule file does not compile: .*rules-outcome\.ts:2:/));
    expect(lines.at(-1)).toMatch(/and 1 file imported for changes \(exit 2 above; Ctrl-C to stop\)$/);

    writeFileSync(helper, HELPER_CLEAN);
    await until(lines, /^watching /, 4);
    expect(lines.filter((l) => l.startsWith('RESULT')).at(-1)).toBe('RESULT: no property violated');

    requestInterrupt('SIGINT');
    expect(await watching).toBe(130);
    expect(lines.filter((l) => l.startsWith('RESULT'))).toHaveLength(3);
  }, 60_000);

  it('on two workers, a re-check on the threads kept from the check before reports what the first did', async () => {
    const { rules } = ruleFiles('two');
    const { io, lines } = capture();
    const flags: CheckFlags = { rules, watch: true, seeds: '400', swarmOnly: true, workers: '2', json: true, out: join(dir, 'two-traces') };
    const watching = rerunOnSave('check', flags, io, async () => (await runCheck(flags, io)).code, { pollMs: 20 });
    await until(lines, /^watching /);
    // A comment: another bundle, the same rule set.
    writeFileSync(rules, `${readFileSync(rules, 'utf8')}// saved again\n`);
    await until(lines, /^watching /, 2);
    requestInterrupt('SIGINT');
    expect(await watching).toBe(130);
    // Everything but the seconds: the runs, steps, layers, ends, coverage and what was reached.
    const reports = lines.filter((l) => l.startsWith('{')).map((l) => ({ ...(JSON.parse(l) as Record<string, unknown>), seconds: 0 }));
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatchObject({ ok: true, runs: 400 });
    expect(reports[1]).toEqual(reports[0]);
  }, 60_000);

  it('explore: a search again on each save, the first clean and the second finding the flaw', async () => {
    const { rules, helper } = ruleFiles('explored');
    const { io, lines } = capture();
    const flags = { rules, watch: true, engines: '1', bodies: '1', quiet: true, out: join(dir, 'explore-traces') };
    const watching = rerunOnSave('explore', flags, io, async () => (await runExplore(flags, io)).code, { pollMs: 20 });
    await until(lines, /^watching /);
    writeFileSync(helper, HELPER_FLAWED);
    await until(lines, /^watching /, 2);
    requestInterrupt('SIGINT');
    expect(await watching).toBe(130);
    expect(lines).toContainEqual(expect.stringMatching(/explored-outcome\.ts changed: exploring again$/));
    expect(lines.filter((l) => l.startsWith('watching ')).map((l) => /\(exit (\d+) above/.exec(l)?.[1])).toEqual(['0', '1']);
  }, 60_000);

  it('stops at its bound of runs, and says so', async () => {
    const rules = join(dir, 'bound.ts');
    writeFileSync(rules, CLEAN_ONLY);
    const { io, lines } = capture();
    let runs = 0;
    const watching = rerunOnSave('check', { rules }, io, async () => (++runs, 1), { pollMs: 20, runsMax: 2 });
    await until(lines, /^watching /);
    writeFileSync(rules, `${CLEAN_ONLY}// again\n`);
    expect(await watching).toBe(1);
    expect(runs).toBe(2);
    expect(lines.at(-1)).toBe('outbox-sim: --watch stopped after 2 runs, the most one process makes (each version of a rule file stays loaded): run the command again to go on watching');
  });

  it('a save that leaves the content as it was is not a change', async () => {
    const { rules } = ruleFiles('same');
    const { io, lines } = capture();
    let runs = 0;
    const watching = rerunOnSave('check', { rules }, io, async () => ++runs, { pollMs: 20 });
    await until(lines, /^watching /);
    writeFileSync(rules, readFileSync(rules));
    await new Promise((r) => setTimeout(r, 200));
    requestInterrupt('SIGTERM');
    expect(await watching).toBe(143);
    expect(runs).toBe(1);
  });

  it('a save during a run makes it stale: the run stops at its next look, and the next starts at once', async () => {
    const rules = join(dir, 'stale.ts');
    writeFileSync(rules, CLEAN_ONLY);
    const { io, lines } = capture();
    const seen: (string | null)[] = [];
    // The first run saves the file itself, then works synchronously (as a search does) until it is told to stop.
    const watching = rerunOnSave(
      'check',
      { rules },
      io,
      async () => {
        if (seen.length === 0) {
          writeFileSync(rules, `${CLEAN_ONLY}// saved during the run\n`);
          let looks = 0;
          while (interruption() === null && looks < 1e7) looks++;
        }
        seen.push(interruption());
        return seen.at(-1) === 'save' ? 130 : 0;
      },
      { pollMs: 20 },
    );
    await until(lines, /^watching /);
    requestInterrupt('SIGINT');
    expect(await watching).toBe(130);
    expect(seen).toEqual(['save', null]);
    expect(lines[0]).toMatch(/stale\.ts changed during the run: it stopped there; checking again$/);
    expect(lines[1]).toMatch(/^watching .*stale\.ts for changes \(exit 0 above; Ctrl-C to stop\)$/);
  });

  it('through the command line, a save during a long check stops it, and the new version is checked at once', async () => {
    const { rules, helper } = ruleFiles('long');
    // 3,000,000 seeds of a clean rule set: minutes. The flawed version is found in its first seeds.
    const { lines, exited, kill, stop } = cliProcess(['check', '--rules', rules, '--watch', '--seeds', '3000000', '--swarm-only', '--stop-on-first', '--workers', '2', '--out', join(dir, 'long-traces')]);
    try {
      await until(lines, /^outbox-sim check: rules /);
      await new Promise((r) => setTimeout(r, 500));
      writeFileSync(helper, HELPER_FLAWED);
      await until(lines, /^watching /);
      kill('SIGINT');
      expect(await exited).toBe(130);
    } finally {
      stop();
    }
    expect(lines).toContainEqual(expect.stringMatching(/^INTERRUPTED \(a watched file was saved\): [\d,]+ of 3,000,000 seeds ran;/));
    expect(lines).toContainEqual(expect.stringMatching(/long-outcome\.ts changed during the run: it stopped there; checking again$/));
    expect(lines.filter((l) => l.startsWith('RESULT')).at(-1)).toBe('RESULT: 1 property violated');
    expect(lines.at(-1)).toMatch(/\(exit 1 above; Ctrl-C to stop\)$/);
  }, 60_000);

  it('through the command line: the rule file runs on the supervised thread, a save runs it again, SIGINT ends it with 130', async () => {
    const { rules, helper } = ruleFiles('cli');
    const { lines, exited, kill, stop } = cliProcess(['check', '--rules', rules, '--watch', '--seeds', '40', '--swarm-only', '--quiet', '--out', join(dir, 'cli-traces')]);
    try {
      await until(lines, /^watching /);
      writeFileSync(helper, HELPER_FLAWED);
      await until(lines, /^watching /, 2);
      kill('SIGINT');
      expect(await exited).toBe(130);
    } finally {
      stop();
    }
    expect(lines.filter((l) => l.startsWith('RESULT'))).toEqual(['RESULT: no property violated', 'RESULT: 1 property violated']);
  }, 60_000);
});
