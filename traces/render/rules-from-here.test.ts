/**
 * A trace's rule file named from the folder `show` runs in: the replay
 * command `show` prints works from there, whichever folder that is.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../sim/cli/test-cli.ts';
import { fileHash } from '../../sim/rules-loader.ts';
import type { TraceRules } from '../../sim/trace-format.ts';
import { ruleFilesNotFound, rulesFromHere } from './rules-from-here.ts';
import { removeDir, tempDir } from './test-traces.ts';

const dir = tempDir('rules-from-here-');
const home = process.cwd();
// The folder a trace was made in: its rule file in r/, its traces in tr/, and two folders to show it from.
const made = join(dir, 'made');
const ruleFile = join(made, 'r', 'x.ts');
let recorded: TraceRules;
beforeAll(() => {
  mkdirSync(join(made, 'r'), { recursive: true });
  mkdirSync(join(made, 'sub', 'deeper'), { recursive: true });
  mkdirSync(join(made, 'tr'), { recursive: true });
  // A rule set of the rule-API tests, its imports made absolute so that it loads from a folder outside properties/.
  const text = readFileSync(resolve('properties/rule-api/transient-writes-nothing.ts'), 'utf8').replace(/from '((?:\.\.\/)+)model\//g, `from '${resolve('model')}/`);
  writeFileSync(ruleFile, text);
  recorded = { name: 'transient-writes-nothing', source: './r/x.ts', hash: fileHash(ruleFile) };
});
afterEach(() => process.chdir(home));
afterAll(() => removeDir(dir));

/** `rulesFromHere` for a trace at `trace` (relative to `from`), run in `from`. */
function from(folder: string, trace: string, rules: TraceRules = recorded, oldRules: TraceRules | null = null) {
  process.chdir(folder);
  return rulesFromHere(trace, { rules, oldRules });
}

describe('rulesFromHere', () => {
  it('lists the recorded files no folder holds with the recorded hash (show then says its replay command will be refused)', () => {
    process.chdir(made);
    expect(ruleFilesNotFound('tr/t.trace.jsonl', { rules: recorded, oldRules: null })).toEqual([]);
    const edited = { ...recorded, hash: '0000000000000000' };
    expect(ruleFilesNotFound('tr/t.trace.jsonl', { rules: edited, oldRules: { name: 'fail-closed', source: 'catalog', hash: null } })).toEqual([edited]);
  });

  it('keeps the recorded path in the folder the trace was made in', () => {
    expect(from(made, 'tr/t.trace.jsonl').rules.source).toBe('./r/x.ts');
  });

  it('names the file from a folder below, beside or outside the one the trace was made in', () => {
    expect(from(join(made, 'sub'), '../tr/t.trace.jsonl').rules.source).toBe('../r/x.ts');
    expect(from(join(made, 'sub', 'deeper'), '../../tr/t.trace.jsonl').rules.source).toBe('../../r/x.ts');
    expect(from(join(made, 'tr'), 't.trace.jsonl').rules.source).toBe('../r/x.ts');
    expect(from(dir, join(made, 'tr', 't.trace.jsonl')).rules.source).toBe('./made/r/x.ts');
  });

  it('does the same for the old rules, and leaves the name and hash as recorded', () => {
    const r = from(join(made, 'sub'), '../tr/t.trace.jsonl', { name: 'fail-closed', source: 'catalog', hash: null }, recorded);
    expect(r.rules).toEqual({ name: 'fail-closed', source: 'catalog', hash: null });
    expect(r.oldRules).toEqual({ ...recorded, source: '../r/x.ts' });
  });

  it('keeps the recorded path when no file there has the recorded content (replay then says what is missing)', () => {
    const other = { ...recorded, hash: '0000000000000000' };
    expect(from(join(made, 'sub'), '../tr/t.trace.jsonl', other).rules.source).toBe('./r/x.ts');
    const gone = { ...recorded, source: './r/gone.ts' };
    expect(from(join(made, 'sub'), '../tr/t.trace.jsonl', gone).rules.source).toBe('./r/gone.ts');
  });
});

describe('show from another folder', () => {
  it('prints a replay command that replays the trace from there, in every format', async () => {
    process.chdir(made);
    const check = await runCli('check', '--rules', './r/x.ts', '--seeds', '300', '--swarm-only', '--out', 'tr', '--json');
    expect(check.code).toBe(1);
    const { violations } = JSON.parse(check.out.join('\n')) as { violations: { path: string; trace: string }[] };
    const trace = violations[0].path;
    process.chdir(join(made, 'sub'));
    const shown = await runCli('show', join('..', trace));
    expect(shown.code).toBe(0);
    const replay = shown.out.join('\n').split('\n').at(-1) ?? '';
    expect(replay).toBe(`replay: npx outbox-sim replay ../${trace} --rules ../r/x.ts`);
    const argv = replay.replace('replay: npx outbox-sim ', '').split(' ');
    const replayed = await runCli(...argv);
    expect(replayed.err).toEqual([]);
    expect(replayed.code).toBe(0);
    for (const format of ['md', 'html']) expect((await runCli('show', join('..', trace), '--format', format)).out.join('\n')).toContain(`replay ../${trace} --rules ../r/x.ts`);
  });
});
