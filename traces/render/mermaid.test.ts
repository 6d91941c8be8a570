// @vitest-environment jsdom
/**
 * The Markdown's diagram parses with Mermaid's own parser (mermaid 11, the
 * same code GitHub runs on a pasted diagram). Mermaid sanitises text with
 * DOMPurify, which needs a DOM, so this file runs under jsdom.
 */
import mermaid from 'mermaid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trace } from '../../sim/trace-format.ts';
import { renderMarkdown } from './markdown.ts';
import { sequenceDiagram } from './mermaid.ts';
import { freshCycleSamples, removeDir, tempDir } from './test-traces.ts';

const dir = tempDir('render-mermaid-');
let traces: Trace[] = [];
beforeAll(async () => {
  mermaid.initialize({ startOnLoad: false });
  traces = [...(await freshCycleSamples(dir)).values()].map((s) => s.trace);
});
afterAll(() => removeDir(dir));

/** The messages and notes Mermaid parsed, as its sequence diagram database holds them. */
async function parsedSignals(source: string): Promise<unknown[]> {
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
  const db = diagram.db as { getMessages?: () => unknown[] };
  if (db.getMessages === undefined) throw new Error(`not a sequence diagram: ${diagram.type}`);
  return db.getMessages();
}

/** Lines our renderer emits that Mermaid keeps as one signal each (messages and notes). */
function signalLines(source: string): string[] {
  return source.split('\n').filter((l) => /^ {2}(Note over |\S+(->>|-x)\S+: )/.test(l));
}

function fenced(md: string): string {
  const m = /```mermaid\n([\s\S]*?)\n```/.exec(md);
  if (m === null) throw new Error('no mermaid block in the Markdown');
  return m[1];
}

describe("the Markdown's diagram under Mermaid's parser", () => {
  it('parses as a sequence diagram for every fresh-cycle counterexample', async () => {
    expect(traces.length).toBeGreaterThanOrEqual(2);
    for (const trace of traces) {
      const source = fenced(renderMarkdown(trace, { path: `traces/found/${trace.id}.trace.jsonl` }));
      await expect(mermaid.parse(source)).resolves.toMatchObject({ diagramType: 'sequence' });
      // Every line we drew is a signal Mermaid kept: nothing was swallowed as a comment or merged.
      expect(await parsedSignals(source)).toHaveLength(signalLines(source).length);
    }
  });

  it('still parses, one signal per line, when labels and details hold Mermaid syntax', async () => {
    const hostile = 'a;b #c <d> %%{init: {}}%% `x` "q" e->>f: g\nh end';
    const base = traces[0];
    const violation = base.header.violation === null ? null : { ...base.header.violation, detail: hostile, property: `p;${hostile}` };
    const trace: Trace = {
      ...base,
      header: { ...base.header, violation },
      // A step the diagram cannot place (no known event) is drawn as a note with its label.
      steps: base.steps.map((s, i) => (i === 0 ? { ...s, event: null, label: hostile } : s)),
    };
    const source = sequenceDiagram(trace);
    await expect(mermaid.parse(source)).resolves.toMatchObject({ diagramType: 'sequence' });
    expect(await parsedSignals(source)).toHaveLength(signalLines(source).length);
  });
});

describe("Mermaid's parser rejects a broken diagram (so the test above can fail)", () => {
  it('rejects a message with a raw semicolon after it (what escaping prevents)', async () => {
    await expect(mermaid.parse('sequenceDiagram\n  e1->>Broker: POST a; x')).rejects.toThrow(/Parse error/);
  });

  it('rejects a mangled arrow', async () => {
    await expect(mermaid.parse('sequenceDiagram\n  e1->>>Broker POST')).rejects.toThrow(/Parse error/);
  });

  it('rejects our own diagram with one message cut short', async () => {
    const source = sequenceDiagram(traces[0]).replace(/(\n {2}e\d+->>Outbox): /, '$1 ');
    await expect(mermaid.parse(source)).rejects.toThrow(/Parse error/);
  });
});
