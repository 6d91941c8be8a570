/**
 * Reading is honest: missing, not a trace at all, corrupt line, truncated and
 * unknown version are different errors, each one line; one changed byte in a
 * step is caught and its line named.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../sim/cli/main.ts';
import { readTrace, TraceReadError } from './read.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'read-'));
let good = '';
let text = '';

beforeAll(async () => {
  const quiet = { out: () => undefined, err: () => undefined, tty: false };
  await main(['check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '300', '--json', '--out', join(tmp, 'found')], quiet);
  good = join(tmp, 'found', readdirSync(join(tmp, 'found'))[0]);
  text = readFileSync(good, 'utf8');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function variant(name: string, content: string | Buffer): string {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
}

function errorOf(path: string): TraceReadError {
  try {
    readTrace(path);
  } catch (e) {
    if (e instanceof TraceReadError) return e;
    throw e;
  }
  throw new Error('expected a TraceReadError');
}

describe('readTrace', () => {
  it('reads a trace the checker wrote, with its content-addressed id', () => {
    const t = readTrace(good);
    expect(good).toContain(`${t.id}.trace.jsonl`);
    expect(t.steps.length).toBe(t.header.stepCount);
  });
  it('a missing file', () => {
    expect(errorOf(join(tmp, 'nope.trace.jsonl')).kind).toBe('missing');
  });
  it('one byte changed inside a step names the corrupt line', () => {
    const lines = text.split('\n');
    // Change the first letter of step 3's label, whatever step it is: still valid JSON, caught by the line checksum.
    lines[3] = lines[3].replace(/"label":"(.)/, (_m, c: string) => `"label":"${c === 'x' ? 'y' : 'x'}`);
    expect(lines[3]).not.toBe(text.split('\n')[3]);
    const e = errorOf(variant('flipped.jsonl', lines.join('\n')));
    expect(e.kind).toBe('corrupt-line');
    expect(e.message).toContain('line 4');
  });
  it('a line that is no longer JSON', () => {
    const lines = text.split('\n');
    lines[2] = lines[2].slice(0, 10) + '}' + lines[2].slice(11);
    const e = errorOf(variant('broken.jsonl', lines.join('\n')));
    expect(e.kind).toBe('corrupt-line');
    expect(e.message).toContain('line 3');
  });
  it('a file cut in the middle of a line', () => {
    expect(errorOf(variant('cut.jsonl', text.slice(0, text.length - 40))).kind).toBe('truncated');
  });
  it('a trace whose only loss is its final newline is read (before: called truncated); one cut a character further is truncated', () => {
    const whole = readTrace(variant('whole.jsonl', text));
    const nonl = readTrace(variant('nonl.jsonl', text.trimEnd()));
    expect(nonl.id).toBe(whole.id);
    expect(nonl.steps).toHaveLength(whole.steps.length);
    const cut = errorOf(variant('cut-brace.jsonl', text.trimEnd().slice(0, -1)));
    expect(cut.kind).toBe('truncated');
    expect(cut.message).toMatch(/ends in the middle of line \d+; the trace is truncated$/);
  });
  it('blank lines after the last step are read as the end (an editor adds one); a blank line between steps is still corrupt', () => {
    const whole = readTrace(variant('whole2.jsonl', text));
    for (const tail of ['\n', '\n\n', '\n \t\n', '\r\n']) {
      const padded = readTrace(variant('padded.jsonl', text + tail));
      expect(padded.id).toBe(whole.id);
      expect(padded.steps).toHaveLength(whole.steps.length);
    }
    const lines = text.trimEnd().split('\n');
    const gap = errorOf(variant('gap.jsonl', `${[...lines.slice(0, 2), '', ...lines.slice(2)].join('\n')}\n`));
    expect(gap.kind).toBe('corrupt-line');
  });
  it('a file cut at a line boundary', () => {
    const lines = text.trimEnd().split('\n');
    expect(errorOf(variant('short.jsonl', `${lines.slice(0, -1).join('\n')}\n`)).kind).toBe('truncated');
  });
  it('an unknown format version', () => {
    const e = errorOf(variant('v9.jsonl', text.replace('"version":1', '"version":9').replace(/"tool":"[^"]*"/, '"tool":"0.0.1"')));
    expect(e.kind).toBe('unknown-version');
    expect(e.message).toContain('version 9');
    expect(e.message).toMatch(/use the outbox-sim version that wrote it, 0\.0\.1\)$/);
    // A header naming this very version was edited: it is not told to use this version.
    const edited = errorOf(variant('v9-here.jsonl', text.replace('"version":1', '"version":9')));
    expect(edited.message).toMatch(/which writes version 1: the trace was edited\)$/);
  });
  it('an unknown format version in a header that does not name its writer', () => {
    const e = errorOf(variant('v9-anon.jsonl', text.replace('"version":1', '"version":9').replace(/"tool":"[^"]*",?/, '')));
    expect(e.kind).toBe('unknown-version');
    expect(e.message).toContain('the header does not say which');
    expect(e.message).not.toContain('undefined');
  });
  it('a version that is a string is named as not a number, not as another version', () => {
    const e = errorOf(variant('vstr.jsonl', text.replace('"version":1', '"version":"1"')));
    expect(e.kind).toBe('bad-shape');
    expect(e.message).toContain('has a version that is not a number (the string "1")');
    expect(e.message).not.toContain('is trace format version');
  });
  it('a binary file is not a trace, not a truncated one', () => {
    // Bytes that are not UTF-8 (0xff never is), and UTF-8 with control characters, no newline either way.
    for (const [name, content] of [['bin.jsonl', Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x91, 0x12])], ['ctl.jsonl', Buffer.from('{\u0000\u0001\u0002')]] as const) {
      const e = errorOf(variant(name, content));
      expect(e.kind).toBe('not-a-trace');
      expect(e.message).toMatch(/is not a trace: it (is not UTF-8 text|holds control characters)/);
      expect(e.message).not.toContain('truncated');
    }
  });
  it('a text file that is not JSON lines is not a trace; a header cut short is still a truncated trace', () => {
    const e = errorOf(variant('words.jsonl', 'hello world'));
    expect(e.kind).toBe('not-a-trace');
    expect(e.message).toContain('is not a trace: its first line is not JSON');
    expect(errorOf(variant('cut-header.jsonl', text.slice(0, 100))).kind).toBe('truncated');
  });
  it('each error is one line', () => {
    for (const p of [join(tmp, 'nope'), variant('e.jsonl', ''), variant('x.jsonl', 'garbage\n')]) {
      expect(errorOf(p).message).not.toContain('\n');
    }
  });
});

describe('outbox-sim replay', () => {
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
    return { code, out, err };
  };
  it('replays a trace identically (exit 0)', async () => {
    const r = await run('replay', good);
    expect(r.code).toBe(0);
    expect(r.out[0]).toContain('replays identically');
  });
  it('re-runs the world under fail-closed: no longer violates, and names the departure', async () => {
    const r = await run('replay', good, '--under', 'fail-closed', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out[0]) as { verdict: string; departedAt: number | null };
    expect(j.verdict).toBe('no longer violates');
    expect(j.departedAt).toBeGreaterThan(0);
  });
  it('re-runs under the recorded rules: still violates (exit 1)', async () => {
    const r = await run('replay', good, '--under', 'fresh-cycle');
    expect(r.code).toBe(1);
    expect(r.out[0]).toContain('still violates');
  });
  it('a corrupted copy exits 2 with one line naming the line', async () => {
    const lines = text.split('\n');
    lines[2] = lines[2].replace(/"n":2/, '"n":2 ');
    const p = variant('spaced.jsonl', lines.join('\n').replace('"choice":', '"choicE":'));
    const r = await run('replay', p);
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/line \d+/);
  });
});
