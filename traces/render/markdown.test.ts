/** The Markdown of a fresh-cycle counterexample, ready for a pull request (the diagram's syntax is checked by Mermaid in mermaid.test.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mdText, renderMarkdown } from './markdown.ts';
import { mermaidText } from './mermaid.ts';
import { statesOf } from './states.ts';
import { phantomFacts, phantomSample, removeDir, tempDir, type PhantomFacts, type Sample } from './test-traces.ts';

const dir = tempDir('render-md-');
let sample: Sample;
let md: string;
let facts: PhantomFacts;
beforeAll(async () => {
  sample = await phantomSample(dir);
  facts = phantomFacts(sample);
  md = renderMarkdown(sample.trace, { path: sample.path });
});
afterAll(() => removeDir(dir));

function section(title: string): string {
  const start = md.indexOf(`### ${title}`);
  expect(start, `section ${title}`).toBeGreaterThan(0);
  const next = md.indexOf('\n### ', start + 4);
  return md.slice(start, next < 0 ? undefined : next);
}

describe('renderMarkdown', () => {
  it('opens with a heading naming the violated property and the rules', () => {
    expect(md.split('\n')[0]).toBe('## outbox-sim: `no-phantom-delivery` violated under `fresh-cycle`');
  });

  it('says what the violated property asks, so the Markdown reads on its own', () => {
    expect(section('Violation')).toContain('`no-phantom-delivery` asks: ');
  });

  it("draws the broker dropping the POST the phantom delivery hangs on, on that POST's arrow", () => {
    const diagram = /```mermaid\n([\s\S]*?)\n```/.exec(md)?.[1] ?? '';
    const dropped = sample.trace.steps.filter((s) => s.tags.includes('broker:dropped')).map((s) => s.n);
    expect(dropped.length).toBeGreaterThan(0);
    for (const n of dropped) {
      const arrow = diagram.split('\n').find((l) => l.includes(`Broker: ${n}. POST`));
      expect(arrow, `step ${n}`).toContain(mermaidText('the broker drops it: it already holds this id'));
    }
  });

  it('draws a sequence diagram with the producer, each engine, the outbox and the broker', () => {
    const diagram = /```mermaid\n([\s\S]*?)\n```/.exec(md)?.[1] ?? '';
    const lines = diagram.split('\n');
    expect(lines[0]).toBe('sequenceDiagram');
    const participants = lines.filter((l) => l.trim().startsWith('participant ')).map((l) => l.trim().split(' ')[1]);
    const engines = [...new Set(statesOf(sample.trace).flatMap((s) => (s.engines as { pid: number }[]).map((e) => `e${e.pid}`)))];
    expect(participants).toEqual(['Producer', ...engines, 'Outbox', 'Broker']);
  });

  it('draws every step as one numbered message, and the faults as notes', () => {
    const diagram = /```mermaid\n([\s\S]*?)\n```/.exec(md)?.[1] ?? '';
    const numbered = diagram.split('\n').filter((l) => /^ {2}\S+(->>|-x)\S+: \d+\. /.test(l) || /^ {2}Note over [^:]+: \d+\. /.test(l));
    expect(numbered.map((l) => Number(/: (\d+)\. /.exec(l)?.[1]))).toEqual(sample.trace.steps.map((s) => s.n));
    expect(diagram).toMatch(new RegExp(` {2}e\\d+-xBroker: \\d+\\. POST ${facts.subject} = ${facts.held} .*lost-reply`));
    expect(diagram).toMatch(/Note over e\d+,Broker: fault: the broker stored it, the reply is lost/);
    expect(diagram).toContain('Note over Outbox,Broker: VIOLATION no-phantom-delivery: ');
  });

  it('lists the store changes step by step, the violation and the replay command', () => {
    const store = section('Store changes, step by step');
    expect(store).toContain('| step | event | records | claims | files | broker |');
    const { subject, delivered, held } = facts;
    expect(store).toMatch(new RegExp(`\\| \\d+ \\| e\\d+ POST -\\\\> lost-reply \\|.*broker holds ${subject} = ${held}`));
    expect(store).toContain(`**(violation)** | record ${subject}: DELIVERED ${delivered}`);
    const v = sample.violation;
    const violation = section('Violation');
    expect(violation).toContain(`| \`no-phantom-delivery\` | ${subject} | ${delivered} | ${v.layer} | ${sample.trace.header.violation?.step} | ${v.detail} |`);
    expect(section('Replay')).toContain(`\`\`\`sh\nnpx outbox-sim replay ${sample.path}\n\`\`\``);
  });
});

describe('escaping', () => {
  it('turns what Mermaid reads as syntax into entity codes', () => {
    expect(mermaidText('a;b #c <d> e&f 100% `x` "q"\nnext')).toBe('a#59;b #35;c #lt;d#gt; e#amp;f 100#37; #96;x#96; #quot;q#quot; next');
  });

  it('keeps Markdown text from becoming markup or breaking a table cell', () => {
    expect(mdText('a|b *c* <script> [l](u) `x` #h\nz & y')).toBe('a\\|b \\*c\\* \\<script\\> \\[l\\](u) \\`x\\` \\#h z &amp; y');
  });
});
