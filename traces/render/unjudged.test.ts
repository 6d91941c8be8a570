/**
 * A trace that recorded no violation is not always a run that ended clean:
 * a diff's side stops at the first difference, and a broken decision's
 * trace stops before the decision. Each rendering says which, and names
 * the engines' rules by rule set, so that neither reads as a passing run of
 * the proposed rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../sim/cli/main.ts';
import type { Trace } from '../../sim/trace-format.ts';
import { readTrace } from '../read.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { sequenceDiagram } from './mermaid.ts';
import { renderText } from './text.ts';
import { removeDir, tempDir } from './test-traces.ts';

const dir = tempDir('render-unjudged-');
let oldSide: Trace;
let oldPath: string;
let newSide: Trace;
let broken: Trace;
let brokenPath: string;

beforeAll(async () => {
  const out: string[] = [];
  const code = await main(['diff', 'fail-closed', 'fresh-cycle', '--json', '--out', dir], { out: (l) => out.push(l), err: () => undefined, tty: false });
  expect(code).toBe(1);
  const r = JSON.parse(out[0]) as { old: { path: string }; new: { path: string } };
  oldPath = r.old.path;
  oldSide = readTrace(r.old.path);
  newSide = readTrace(r.new.path);
  const err: string[] = [];
  const exit = await main(['check', '--rules', 'properties/broken-rules/classify-throws.ts', '--swarm-only', '--seeds', '10', '--out', dir], { out: () => undefined, err: (l) => err.push(l), tty: false });
  expect(exit).toBe(2);
  const path = /: (\S+\.trace\.jsonl)$/.exec(err[0] ?? '')?.[1];
  expect(path, err[0]).toBeDefined();
  brokenPath = path as string;
  broken = readTrace(brokenPath);
});
afterAll(() => removeDir(dir));

describe('a trace that recorded no violation', () => {
  it("a diff's side says it stops at the first difference, in every rendering, and is not 'clean'", () => {
    for (const t of [oldSide, newSide]) {
      expect(t.header.violation).toBeNull();
      const text = renderText(t, { path: 't.jsonl' });
      const md = renderMarkdown(t, { path: 't.jsonl' });
      const html = renderHtml(t, { path: 't.jsonl' });
      for (const r of [text, md]) {
        expect(r).toContain('one side of a diff');
        expect(r).not.toMatch(/ends clean/i);
      }
      expect(md.split('\n')[0]).toContain('one side of a diff');
      expect(html).toContain('class="unjudged"');
      expect(html).toContain('one side of a diff');
    }
  });

  it("replay says a diff's side stops at the first difference", async () => {
    const out: string[] = [];
    expect(await main(['replay', oldPath], { out: (l) => out.push(l), err: () => undefined, tty: false })).toBe(0);
    expect(out[0]).toContain("stopping at a diff's first difference");
  });

  it('replay --json says how the trace ends as the text does: a broken decision named, a diff side marked (before: a clean-looking identical, property null)', async () => {
    const replay = async (...argv: string[]): Promise<string> => {
      const out: string[] = [];
      expect(await main(['replay', ...argv], { out: (l) => out.push(l), err: () => undefined, tty: false })).toBe(0);
      return out[0] ?? '';
    };
    const rules = ['--rules', 'properties/broken-rules/classify-throws.ts'];
    expect(JSON.parse(await replay(brokenPath, ...rules, '--json'))).toMatchObject({ identical: true, property: null, end: 'broken-decision', brokenDecision: { decision: 'classify', kind: 'threw' } });
    expect(await replay(brokenPath, ...rules)).toContain('stopping before a broken decision');
    expect(JSON.parse(await replay(oldPath, '--json'))).toMatchObject({ identical: true, property: null, end: 'diff', brokenDecision: null });
  });

  it('names the engines by their rule set outside version skew: the old side is not drawn as "new rules"', () => {
    expect(sequenceDiagram(oldSide)).toContain('Gateway e1 (fail-closed)');
    expect(sequenceDiagram(newSide)).toContain('Gateway e1 (fresh-cycle)');
    expect(sequenceDiagram(oldSide)).not.toContain('new rules');
  });

  it("a broken decision's trace says which decision broke, and that the run stops before it", () => {
    expect(broken.header.brokenDecision).toMatchObject({ ruleSet: expect.stringContaining('classify-throws') as string, decision: 'classify', kind: 'threw', reach: 'decision' });
    const text = renderText(broken, { path: 't.jsonl' });
    expect(text).toContain('the run stops before a broken decision');
    expect(text).toContain('classify threw');
    // The rule file is named with its content hash: which version of the file made the trace.
    expect(text.split('\n')[0]).toMatch(/rules classify-throws \(\.\/properties\/broken-rules\/classify-throws\.ts content hash [0-9a-f]{16}\)/);
    expect(text).not.toMatch(/ends clean/i);
    expect(renderMarkdown(broken, { path: 't.jsonl' }).split('\n')[0]).toContain('a decision of');
    expect(renderHtml(broken, { path: 't.jsonl' })).toContain('class="unjudged"');
  });
});
