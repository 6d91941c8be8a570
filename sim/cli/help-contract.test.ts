/**
 * The CLI tells its contract: `--version` is package.json's, each command's
 * `--help` gives the defaults and the exit codes, and the README's command
 * table names exactly the flags each command takes (built from the
 * program's own command tree, so neither can drift from the other).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEEDS_DEFAULT } from '../check.ts';
import { EXPLORE_DEFAULTS } from '../outbox/explore-options.ts';
import { TOOL_VERSION } from '../trace-format.ts';
import { COMPARE_STATES_DEFAULT } from './compare-command.ts';
import { DIFF_STATES_DEFAULT } from './diff-command.ts';
import { MAX_STATES_DEFAULT } from './explore-command.ts';
import { EXIT_CODES } from './help-contract.ts';
import { buildProgram, COMMANDS, main, programParts } from './main.ts';

const quiet = { out: () => undefined, err: () => undefined, tty: false };

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
  // Commander wraps long help lines: one space between words makes them comparable.
  return { code, out: out.join('\n'), flat: out.join('\n').replace(/\s+/g, ' '), err };
}

const packageVersion = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('--version', () => {
  it("prints package.json's version, exit 0; traces record the same", async () => {
    const r = await run('--version');
    expect(r).toMatchObject({ code: 0, out: packageVersion, err: [] });
    expect(TOOL_VERSION).toBe(packageVersion);
  });
});

describe('the commands defined', () => {
  it('COMMANDS names every command of the whole program, in its order (a run defines only the one argv names)', async () => {
    const { program } = buildProgram(quiet, await programParts(null, false));
    expect(program.commands.map((c) => c.name())).toEqual([...COMMANDS]);
    expect(buildProgram(quiet, await programParts('rules', false)).program.commands.map((c) => c.name())).toEqual(['rules']);
  });
});

describe('--help of each command', () => {
  it('check gives --seeds default from SEEDS_DEFAULT and its exit codes', async () => {
    const r = await run('check', '--help');
    expect(r.code).toBe(0);
    expect(r.flat).toMatch(new RegExp(`--seeds <n> number of seeds to run \\(default: ${SEEDS_DEFAULT}\\)`));
    expect(r.flat).toContain('Exit codes: 0 no property violated 1 a property violated');
    expect(r.flat).toContain('2 bad input');
    expect(r.flat).toContain('a decision that throws, hangs, returns a malformed value, changes a record it is given or keeps state between calls');
    expect(r.flat).toContain('130/143 interrupted by Ctrl-C (130) or SIGTERM (143)');
  });
  it('explore and diff give the world sizes and their --max-states defaults; explore and diff name exit 3', async () => {
    const d = EXPLORE_DEFAULTS;
    for (const [command, states] of [['explore', MAX_STATES_DEFAULT], ['diff', DIFF_STATES_DEFAULT]] as const) {
      const r = await run(command, '--help');
      expect(r.code).toBe(0);
      for (const [flag, value] of [['ids', d.ids], ['bodies', d.bodiesPerId], ['engines', d.engines], ['attempts', d.attemptsMax], ['crashes', d.crashesMax], ['corruptions', d.corruptionsMax], ['operator', d.operatorActionsMax], ['broker', d.broker], ['max-states', states]]) {
        // The flag's own description: up to the next flag.
        expect(r.flat).toMatch(new RegExp(`--${flag} <\\w+> (?:(?! --).)*\\(default: ${value}\\)`));
      }
      expect(r.flat).toMatch(/ 3 [^.]*not a proof/);
    }
    expect((await run('explore', '--help')).flat).toContain('--max-depth <n> search every trace');
  });
  it('compare gives --seeds, --max-states and --workers defaults', async () => {
    const r = await run('compare', '--help');
    expect(r.flat).toContain(`(default: ${SEEDS_DEFAULT})`);
    expect(r.flat).toContain(`(default: ${COMPARE_STATES_DEFAULT})`);
    expect(r.flat).toMatch(/--workers <n> (?:(?! --).)*\(default: 1\)/);
  });
  it('the program help lists the exit codes of every command', async () => {
    const r = await run('--help');
    expect(r.code).toBe(0);
    for (const code of ['0', '1', '2', '3', '130/143']) expect(r.out).toMatch(new RegExp(`\\n  ${code} +\\S`));
  });
  it('every command lists its exit codes, 0 and 2 at least', async () => {
    const { program } = buildProgram(quiet, await programParts(null, true));
    for (const command of program.commands) {
      const r = await run(command.name(), '--help');
      expect(r.code).toBe(0);
      expect(EXIT_CODES[command.name()].map(([c]) => c)).toEqual(expect.arrayContaining(['0', '2']));
      expect(r.out).toContain('\nExit codes:\n  0');
      // One block: a command's own help text must not say its exit codes a second time.
      expect([command.name(), r.out.match(/Exit codes/g)?.length]).toEqual([command.name(), 1]);
    }
  });
  it('replay: the still-violates / no-longer-violates verdict is of --under, not of --rules (the exact replay)', async () => {
    const r = await run('replay', '--help');
    const codes = r.flat.slice(r.flat.indexOf('Exit codes:'));
    expect(codes).toContain('(with --under: the run no longer violates)');
    expect(codes).toContain('(with --under: the run still violates)');
    expect(codes).not.toMatch(/with --rules/);
  });
  it('defaults are only told, not given: a flag left out stays unset', async () => {
    const { program } = buildProgram(quiet, await programParts(null, true));
    for (const command of program.commands) {
      for (const option of command.options) {
        // The flags that had a commander default before help told the others' defaults.
        if (['--rules', '--out', '--format'].includes(option.long ?? '') && option.defaultValue !== undefined) continue;
        expect([command.name(), option.long, option.defaultValue]).toEqual([command.name(), option.long, undefined]);
      }
    }
  });
});

/** The README's command table: command name (or `--version`) to the flags its first cell names. */
function readmeTable(): Map<string, string[]> {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Commands'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| --- |')));
  const rows = new Map<string, string[]>();
  for (const line of table.split('\n')) {
    const m = /^\| `outbox-sim ([^`]*)` \|/.exec(line);
    if (m === null) continue;
    const words = m[1].split(' ');
    const name = words[0].startsWith('--') ? '' : words[0];
    rows.set(name, [...new Set(m[1].match(/--[a-z][a-z-]*/g) ?? [])].sort());
  }
  return rows;
}

describe("the README's command table", () => {
  it('names every command, and for each exactly the flags commander registers', async () => {
    const { program } = buildProgram(quiet, await programParts(null, true));
    const registered = new Map<string, string[]>([['', program.options.map((o) => o.long ?? '').sort()]]);
    for (const command of program.commands) registered.set(command.name(), command.options.map((o) => o.long ?? '').sort());
    expect(readmeTable()).toEqual(registered);
  });
});
