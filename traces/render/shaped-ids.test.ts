/**
 * Ids that differ only by a trailing space or by Unicode normalisation (docs/protocol.md, 'Id shapes')
 * rendered apart in every trace format: a counterexample of a key built from the trimmed id, in the
 * small world of 2 ids of shape `space`, read back and printed as text, Markdown (its table, its
 * sequence diagram) and HTML; the trace replays identically and carries the shape in its options.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../sim/rules-loader.ts';
import { replayExactly } from '../../sim/outbox/rerun-trace.ts';
import { exploreSmallWorld, smallWorlds } from '../../sim/small-worlds.ts';
import { steppersFor } from '../../sim/check.ts';
import type { RulesPair } from '../../sim/outbox/record-trace.ts';
import type { Trace } from '../../sim/trace-format.ts';
import { readTrace } from '../read.ts';
import { headerProblem } from '../shape.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { sequenceDiagram } from './mermaid.ts';
import { renderText } from './text.ts';
import { removeDir, tempDir } from './test-traces.ts';

const dir = tempDir('render-ids-');
let trace: Trace;
let path: string;
let file: string;
beforeAll(async () => {
  // A key built from the trimmed id (`order-17` and `order-17 ` share it), as a rule file: the trace names it, and replays under it.
  file = join(dir, 'key-trimmed.ts');
  writeFileSync(
    file,
    `import failClosed from ${JSON.stringify(resolve('model/catalog/fail-closed.ts'))};\nimport { extendRules } from ${JSON.stringify(resolve('model/rules.ts'))};\nexport default extendRules(failClosed, { name: 'key-trimmed', summary: 'fail-closed whose key is built from the trimmed id.', envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: \`\${id.trim()}#\${record.resendEpoch}\` }) });\n`,
  );
  const loaded = await loadRules(file);
  const world = smallWorlds(false, { broker: null }, false, [], ['space']).find((w) => w.sizes.idShape === 'space');
  if (world === undefined) throw new Error('no small world of ids of shape space');
  const pair: RulesPair = { rules: loaded.rules, rulesOrigin: loaded.origin, oldRules: null, oldRulesOrigin: null };
  const found = exploreSmallWorld(pair, steppersFor(loaded.rules, null), world, 0, { outDir: dir, replayCommand: (p) => p, now: () => 0 });
  const v = found.violations[0];
  if (v === undefined) throw new Error('key-trimmed: no violation in the world of ids of shape space');
  path = v.path;
  trace = readTrace(path);
});
afterAll(() => removeDir(dir));

describe('ids of a shape in a rendered trace', () => {
  it('carry the shape in the trace, whose ids are the exact strings', () => {
    expect((trace.header.options as { idShape?: string }).idShape).toBe('space');
    expect(trace.header.violation?.subject).toBe('order-17 ');
  });

  it('show a trailing space in text, Markdown, the sequence diagram and HTML', () => {
    const text = renderText(trace, { path });
    const md = renderMarkdown(trace, { path });
    expect(text).toContain('record "order-17 " says DELIVERED A but the broker holds nothing');
    expect(text).toContain('space (order-17 and "order-17 ", differing only by a trailing space)');
    // The table's rows and the violation's subject: both ids, told apart.
    expect(md).toMatch(/\| produce order-17 \|/);
    expect(md).toMatch(/\| produce "order-17 " \|/);
    expect(md).toContain('| `no-phantom-delivery` | "order-17 " |');
    // Mermaid writes a quote as #quot;.
    expect(sequenceDiagram(trace)).toContain('POST #quot;order-17 #quot; = A');
    expect(renderHtml(trace, { path })).toContain('<span data-field="subject">&quot;order-17 &quot;</span>');
  });

  it('are held in a trace header to a shape the world knows, with 2 ids and not beside ids named alike', () => {
    // A corpus trace's header, its options given 2 ids and a shape.
    const header = JSON.parse(readFileSync('traces/corpus/2d34cb6f0049.trace.jsonl', 'utf8').split('\n')[0]) as { options: Record<string, unknown> };
    const base = { ...header.options, ids: 2 };
    const problem = (o: Record<string, unknown>): string | null => headerProblem({ ...header, options: o });
    expect(problem(base)).toBeNull();
    expect(problem({ ...base, idShape: 'accent' })).toBeNull();
    expect(problem({ ...base, idShape: 'umlaut' })).toMatch(/idShape/);
    expect(problem({ ...base, ids: 3, idShape: 'case' })).toMatch(/an id shape names at most 2 ids/);
    expect(problem({ ...base, longIds: true, idShape: 'case' })).toMatch(/not with ids named alike/);
  });

  it('replays identically', async () => {
    expect(await replayExactly(trace, { rules: file })).toEqual({ identical: true, steps: trace.steps.length });
  });
});
