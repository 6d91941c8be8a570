/**
 * Terminal safety: a rule set's name comes from the user's file and is
 * recorded in traces; printed raw, an escape sequence in it recolours or
 * clears the terminal and a newline forges a line of the report. Every
 * command prints it escaped.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { terminalLines, terminalSafeIo, terminalText } from '../terminal-text.ts';
import { runCli as run } from './test-cli.ts';

// A raw control character (the newline aside, which separates the lines a command itself prints).
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminalText', () => {
  it('escapes C0, DEL, C1, line separators and bidi overrides; leaves the rest', () => {
    expect(terminalText('a\u001b[2Jb\r\n\t\u0007\u007f\u009b\u2028\u202e é ✓ \\')).toBe('a\\u001b[2Jb\\r\\n\\t\\u0007\\u007f\\u009b\\u2028\\u202e é ✓ \\');
    expect(terminalText('fail-closed')).toBe('fail-closed');
  });
  it('terminalLines keeps newlines, and a JSON line stays the same JSON', () => {
    expect(terminalLines('a\u001b\nb')).toBe('a\\u001b\nb');
    const value = { name: 'x\u009b\u202e\u2028y' };
    const line = terminalLines(JSON.stringify(value));
    expect(line).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(line)).toEqual(value);
  });
  it('terminalSafeIo escapes every line on both streams', () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = terminalSafeIo({ out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
    io.out('x\u001by');
    io.err('\u0007');
    expect([out, err]).toEqual([['x\\u001by'], ['\\u0007']]);
  });
});

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'terminal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const EVIL = 'evil\u001b[31m\r\u0007\nRESULT: forged\u001b]0;title\u0007';
// fresh-cycle under that name: flawed, so check, compare and explore print violations too.
const evilRules = join(tmp, 'evil.ts');
writeFileSync(
  evilRules,
  `import freshCycle from '../../model/catalog/fresh-cycle.ts';\nexport default { ...freshCycle, name: ${JSON.stringify(EVIL)}, summary: ${JSON.stringify(`summary ${EVIL}`)} };\n`,
);
const notRules = join(tmp, 'half.ts');
writeFileSync(notRules, `export default { name: ${JSON.stringify(EVIL)}, summary: 'no decisions', schemaKnown: 1 };\n`);


/** No raw control character on either stream, no forged line, one line per error, and the name shown escaped. */
function expectSafe(r: { out: string[]; err: string[] }, showsName = true) {
  const all = [...r.out, ...r.err];
  for (const line of all) expect(line).not.toMatch(RAW_CONTROL);
  expect(all.flatMap((l) => l.split('\n')).filter((l) => l.startsWith('RESULT: forged'))).toEqual([]);
  for (const line of r.err) expect(line).not.toContain('\n');
  if (showsName) expect(all.join('\n')).toContain('evil\\u001b[31m\\r\\u0007\\nRESULT: forged');
}

describe('a rule set named with control characters', () => {
  const found = join(tmp, 'found');
  it('check', async () => {
    const r = await run('check', '--swarm-only', '--rules', evilRules, '--seeds', '300', '--out', found);
    expect(r.code).toBe(1);
    expectSafe(r);
  });
  it('recheck, replay --rules and show of the traces it wrote', async () => {
    const recheck = await run('recheck', found, '--rules', evilRules);
    expect(recheck.code).toBe(1);
    expectSafe(recheck);
    const trace = join(found, readdirSync(found).filter((f) => f.endsWith('.trace.jsonl'))[0]);
    const replay = await run('replay', trace, '--under', evilRules);
    expect(replay.code).toBe(1);
    expectSafe(replay);
    const show = await run('show', trace);
    expect(show.code).toBe(0);
    expectSafe(show);
    const md = await run('show', trace, '--format', 'md');
    expectSafe(md, false);
  });
  it('compare (text and md)', async () => {
    for (const format of ['text', 'md']) {
      const r = await run('compare', evilRules, '--seeds', '30', '--max-states', '3000', '--format', format, '--out', join(tmp, 'cmp'));
      expect(r.code).toBe(1);
      expectSafe(r);
    }
  });
  it('explore and diff', async () => {
    const explore = await run('explore', '--rules', evilRules, '--max-states', '3000', '--out', join(tmp, 'exp'));
    expectSafe(explore);
    const diff = await run('diff', 'fail-closed', evilRules, '--max-states', '3000', '--out', join(tmp, 'diff'));
    expectSafe(diff);
  });
  it('a rule file that is not a rule set: the error is one escaped line', async () => {
    const r = await run('check', '--rules', notRules, '--seeds', '1');
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expectSafe(r);
  });
});
