/** `outbox-sim show`: stdout or an atomically written file, one-line errors for bad flags and unreadable traces. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceReadError } from '../../traces/read.ts';
import { phantomSample, removeDir, tempDir, type Sample } from '../../traces/render/test-traces.ts';
import { UsageError } from '../usage-error.ts';
import { lineSum } from '../trace-format.ts';
import { canonicalJson } from '../core/canonical.ts';
import { SHOW_FORMATS, showCommand } from './show-command.ts';

const dir = tempDir('show-');
let sample: Sample;
beforeAll(async () => {
  sample = await phantomSample(join(dir, 'traces'));
});
afterAll(() => removeDir(dir));

/** The trace's text with header fields replaced, the header sealed again (as the writer seals it, so only the change is tested). */
function withHeader(text: string, fields: Record<string, unknown>): string {
  const [first, ...rest] = text.split('\n');
  const { sum: _sum, ...header } = JSON.parse(first) as Record<string, unknown>;
  const content = { ...header, ...fields };
  return [canonicalJson({ ...content, sum: lineSum(content) }), ...rest].join('\n');
}

async function show(flags: { format?: string; out?: string }, path = sample.path) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await showCommand(path, flags, { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
  return { code, out: out.join('\n'), err };
}

describe('outbox-sim show', () => {
  it('prints the text table by default', async () => {
    const r = await show({});
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toContain(`trace ${sample.trace.id}`);
    expect(r.out).toContain(`replay: npx outbox-sim replay ${sample.path}`);
  });

  it('prints Markdown and HTML to stdout', async () => {
    expect((await show({ format: 'md' })).out).toMatch(/^## outbox-sim: `no-phantom-delivery`/);
    expect((await show({ format: 'html' })).out).toMatch(/^<!doctype html>/);
  });

  it('writes --out atomically (no temporary file left), creating its folder, and says where on stderr', async () => {
    const out = join(dir, 'views', 'trace.md');
    const r = await show({ format: 'md', out });
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toEqual([`wrote md of trace ${sample.trace.id} to ${out}`]);
    expect(readFileSync(out, 'utf8')).toMatch(/^## outbox-sim: /);
    expect(readdirSync(join(dir, 'views'))).toEqual(['trace.md']);
  });

  it('takes the format from the --out extension when --format is absent', async () => {
    const out = join(dir, 'views', 'page.html');
    await show({ out });
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('refuses an --out extension of no format it writes, and writes nothing (a text table in x.pdf)', async () => {
    const out = join(dir, 'views', 'page.pdf');
    const e = await show({ out }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toContain('not .pdf');
    expect(existsSync(out)).toBe(false);
    // --format says it outright, whatever the name.
    await show({ out, format: 'md' });
    expect(readFileSync(out, 'utf8')).toMatch(/^## /);
  });

  it('rejects an unknown --format with one line naming the flag', async () => {
    const e = await show({ format: 'pdf' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toBe('--format must be one of text, md, html, got "pdf"');
  });

  it('lets the reader say why a trace cannot be read', async () => {
    const missing = await show({}, join(dir, 'nope.trace.jsonl')).catch((x: unknown) => x);
    expect(missing).toBeInstanceOf(TraceReadError);
    expect((missing as TraceReadError).kind).toBe('missing');
    const bad = join(dir, 'bad.trace.jsonl');
    writeFileSync(bad, readFileSync(sample.path, 'utf8').replace('"label":"', '"label":"X'));
    const corrupt = await show({ format: 'html' }, bad).catch((x: unknown) => x);
    expect((corrupt as TraceReadError).kind).toBe('corrupt-line');
    expect((corrupt as Error).message).not.toContain('\n');
  });

  it('refuses a trace of another model in one line, in every format, rather than tripping in a renderer', async () => {
    const receipts = join(dir, 'receipts.trace.jsonl');
    writeFileSync(receipts, withHeader(readFileSync(sample.path, 'utf8'), { model: 'receipts' }));
    for (const format of SHOW_FORMATS) {
      const e = await show({ format }, receipts).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(UsageError);
      expect((e as Error).message).toBe('receipts.trace.jsonl is a trace of the receipts model; show draws outbox traces only (their records, engines and broker): read its JSON lines directly, one step a line');
    }
  });

  it('says when --out cannot be written', async () => {
    const blocker = join(dir, 'file');
    writeFileSync(blocker, 'x');
    const e = await show({ out: join(blocker, 'x.md') }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toBe(`--out ${join(blocker, 'x.md')} lies under ${blocker}, which is a file; give a folder (or move that file away)`);
    expect(existsSync(join(blocker, 'x.md'))).toBe(false);
    // Checked before the trace is read: a missing trace does not hide it.
    const first = await show({ out: join(blocker, 'x.md') }, join(dir, 'nope.trace.jsonl')).catch((x: unknown) => x);
    expect((first as Error).message).toContain('which is a file');
  });
});
