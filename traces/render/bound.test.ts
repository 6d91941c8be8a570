/**
 * `show` bounds what it reads and what it renders: a 100 MB label is one
 * clear line (exit 2), never an out-of-memory abort; a long label under the
 * reader's limits is a clipped cell; a page whose states would be huge, and
 * a trace whose states would take millions of copies to rebuild, are one
 * line each. Every file is sealed with correct checksums, so only the size
 * is at fault.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../sim/cli/main.ts';
import { canonicalJson } from '../../sim/core/canonical.ts';
import { lineSum, traceLines, type TraceHeader, type TraceStep } from '../../sim/trace-format.ts';
import { readTrace, TRACE_BYTES_MAX, TRACE_LINE_CHARS_MAX } from '../read.ts';
import { CELL_CHARS_MAX } from './bound.ts';
import { removeDir, tempDir } from './test-traces.ts';

const dir = tempDir('bound-');
afterAll(() => removeDir(dir));

const base = readTrace('traces/corpus/9fc259433b41.trace.jsonl');

function sealed(name: string, steps: readonly TraceStep[]): string {
  const path = join(dir, `${name}.trace.jsonl`);
  const header: TraceHeader = { ...base.header, stepCount: steps.length, violation: null };
  // Sealed as they are: the writer would put a long string in runs (sim/trace-strings.ts), these stand for a file made by something else.
  const line = (content: object): string => canonicalJson({ ...content, sum: lineSum(content) });
  writeFileSync(path, `${[header, ...steps].map(line).join('\n')}\n`);
  return path;
}

function step(n: number, change: Record<string, unknown>, label = `produce a`): TraceStep {
  return { n, label, group: 'producer', choice: 0, phase: 'fault', event: { kind: 'produce', id: 'a' }, tags: [], change };
}

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
  return { code, out: out.join('\n'), err };
}

/** A map of `n` small entries: what a crafted change would fill a world's field with. */
function manyKeys(n: number): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]));
}

describe('show bounds what it reads and renders', () => {
  it('a trace with a 100 MB label ends with one line and exit 2, without reading it', async () => {
    const path = sealed('huge-label', [step(1, {}, 'x'.repeat(100 * 1024 * 1024))]);
    for (const format of ['text', 'md', 'html']) {
      const r = await run('show', path, '--format', format);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(/is 100\.0 MiB, more than the 64\.0 MiB a trace may have/);
      expect(r.out).toBe('');
    }
    expect(TRACE_BYTES_MAX).toBe(64 * 1024 * 1024);
  }, 60_000);

  it('a line longer than a trace line may be is one line naming it', async () => {
    const path = sealed('long-line', [step(1, {}), step(2, {}, 'y'.repeat(TRACE_LINE_CHARS_MAX + 1))]);
    const r = await run('replay', path);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/line 3 is 1,048,7\d\d characters long/);
  });

  it('a line nested 200,000 levels deep (JSON.parse takes it, a recursive checksum would not) is one line', async () => {
    const path = join(dir, 'deep.trace.jsonl');
    const header = traceLines({ ...base.header, stepCount: 1, violation: null }, [])[0];
    writeFileSync(path, `${header}\n{"n":1,"deep":${'['.repeat(200_000)}${']'.repeat(200_000)},"sum":"00000000"}\n`);
    const r = await run('show', path);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([expect.stringMatching(/line 2 nests values deeper than a trace does/) as string]);
  });

  it('a 500,000-character label and file body are clipped cells in every format, each a few kilobytes', async () => {
    const long = `z${'w'.repeat(500_000)}`;
    const path = sealed('long-label', [step(1, { live: { set: { a: { id: 'a', body: long, generation: 1 } } } }, long), step(2, {})]);
    for (const format of ['text', 'md', 'html']) {
      const r = await run('show', path, '--format', format);
      expect(r.code, format).toBe(0);
      expect(r.out, format).toContain("z+500,000 chars #");
      expect(r.out, format).not.toContain('w'.repeat(CELL_CHARS_MAX + 1));
      expect(r.out.length, format).toBeLessThan(100_000);
    }
  });

  it('a page whose states would be huge is refused in one line; the table still renders', async () => {
    // One step fills a field with 60,000 keys (720 KB), then 60 steps change nothing: 60 copies of it in the page.
    const steps = [step(1, { extra: { set: manyKeys(60_000) } }), ...Array.from({ length: 60 }, (_, i) => step(i + 2, {}))];
    const path = sealed('wide-states', steps);
    const html = await run('show', path, '--format', 'html');
    expect(html.code).toBe(2);
    expect(html.err).toHaveLength(1);
    expect(html.err[0]).toMatch(/its states come to more than 32 MiB by step \d+, too large for one page; show it with --format text or md/);
    const text = await run('show', path);
    expect(text.code).toBe(0);
    expect(text.out).toContain('extra changed');
  });

  it('a trace whose states would take millions of copies to rebuild is refused by the reader', async () => {
    // 60,000 keys, then 100 steps that each touch the same field: 6 million copies.
    const steps = [step(1, { records: { set: manyKeys(60_000) } }), ...Array.from({ length: 100 }, (_, i) => step(i + 2, { records: { set: { [`r${i}`]: 1 } } }))];
    const path = sealed('costly', steps);
    for (const argv of [['show', path], ['replay', path, '--rules', 'fail-closed']]) {
      const r = await run(...argv);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(/rebuilding its states would copy more than 5,000,000 entries \(by step \d+\)/);
    }
  });

  it('a state a renderer cannot draw is one line, not a stack', async () => {
    // Well-shaped lines, but a record slot that is a number.
    const path = sealed('odd-state', [step(1, { records: { set: { a: 5 } } })]);
    const r = await run('show', path, '--format', 'html');
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/records states outbox-sim cannot draw/);
  });
});
