/**
 * The HTML page's sequence diagram is drawn from the same data as the
 * Markdown's Mermaid diagram (step-drawings.ts): the same lanes, the same
 * words on every message, the same broken arrows and fault notes. Its layout
 * is plain data, checked here for what a reader relies on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trace } from '../../sim/trace-format.ts';
import { escapeHtml } from './escape.ts';
import { sequenceDiagram } from './mermaid.ts';
import { statesOf } from './states.ts';
import { lanesOf, stepDrawings } from './step-drawings.ts';
import { sequenceLayout, sequenceSvg, TEXT_CHARS_MAX } from './svg-sequence.ts';
import { phantomSample, removeDir, tempDir } from './test-traces.ts';

const dir = tempDir('render-svg-sequence-');
let trace: Trace;
beforeAll(async () => {
  trace = (await phantomSample(dir)).trace;
});
afterAll(() => removeDir(dir));

function layoutOf(t: Trace) {
  const states = statesOf(t);
  return sequenceLayout(lanesOf(t, states), stepDrawings(t, states), t.header.violation);
}

describe('the SVG sequence diagram', () => {
  it("has the Mermaid diagram's participants as its lanes, in the same order", () => {
    const mermaidIds = sequenceDiagram(trace)
      .split('\n')
      .flatMap((l) => /^ {2}participant (\S+)/.exec(l)?.slice(1) ?? []);
    expect(layoutOf(trace).lanes.map((l) => l.id)).toEqual(mermaidIds);
    expect(mermaidIds).toEqual(expect.arrayContaining(['Producer', 'e1', 'Outbox', 'Broker']));
  });

  it('draws every step once (and the initial world as step 0), with the words and arrows of the Mermaid diagram', () => {
    const layout = layoutOf(trace);
    expect(layout.steps.map((s) => s.n)).toEqual([0, ...trace.steps.map((s) => s.n)]);
    const messages = sequenceDiagram(trace)
      .split('\n')
      .filter((l) => /^ {2}\S+(->>|-x)\S+: /.test(l));
    const arrows = layout.steps.filter((s) => s.shape !== 'none');
    expect(arrows).toHaveLength(messages.length);
    arrows.forEach((s, i) => {
      const m = /^ {2}(\S+?)(->>|-x)(\S+): (.*)$/.exec(messages[i]);
      expect(m).not.toBeNull();
      const lane = (x: number) => layout.lanes.find((l) => l.x === x)?.id;
      expect([lane(s.x1), lane(s.x2)]).toEqual([m?.[1], m?.[3]]);
      expect(s.broken).toBe(m?.[2] === '-x');
      expect(m?.[4].startsWith(`${s.n}. `)).toBe(true);
      expect(s.text.startsWith(`${s.n}. `)).toBe(true);
    });
  });

  it('marks fault steps and the violation, each with its note', () => {
    const layout = layoutOf(trace);
    const lost = trace.steps.find((s) => s.label.includes('lost-reply'));
    const drawn = layout.steps.find((s) => s.n === lost?.n);
    expect(drawn?.classes).toContain('fault');
    expect(drawn?.broken).toBe(true);
    expect(drawn?.notes.map((n) => n.kind)).toEqual(['fault']);
    const v = trace.header.violation;
    const last = layout.steps.find((s) => s.n === v?.step);
    expect(last?.classes).toContain('violation');
    expect(last?.notes.at(-1)?.text).toBe(`VIOLATION ${v?.property}: ${v?.detail}`);
    // Notes hold their text; the picture (and so the highlight band) is as wide as everything drawn.
    for (const st of layout.steps) for (const nt of st.notes) expect(nt.w).toBeGreaterThanOrEqual(Math.min(nt.text.length, TEXT_CHARS_MAX) * 7);
    expect(layout.width).toBeGreaterThanOrEqual(Math.max(...layout.steps.flatMap((st) => st.notes.map((nt) => nt.x + nt.w))));
    // Steps go down the page without overlapping.
    for (let i = 1; i < layout.steps.length; i++) expect(layout.steps[i].y).toBe(layout.steps[i - 1].y + layout.steps[i - 1].h);
    expect(layout.height).toBeGreaterThan(layout.steps.at(-1)?.y ?? 0);
  });

  it('writes one clickable group per step, text escaped and shortened, no external reference', () => {
    // A step of a kind the table does not know is drawn as a note with its label.
    const evil = `<b>${'x'.repeat(200)}</b>`;
    const t: Trace = { ...trace, steps: trace.steps.map((s, i) => (i === 0 ? { ...s, label: evil, event: { kind: 'mystery' } } : s)) };
    expect(layoutOf(t).steps[1]).toMatchObject({ shape: 'none', notes: [{ text: `1. ${evil}` }] });
    const svg = sequenceSvg(layoutOf(t));
    expect(svg.startsWith('<svg id="sequence"')).toBe(true);
    expect(svg.match(/<g class="msg[^"]*" data-step="\d+"/g)).toHaveLength(trace.steps.length + 1);
    expect(svg.match(/<g class="lane"/g)).toHaveLength(layoutOf(t).lanes.length);
    expect(svg).not.toContain('<b>');
    expect(svg).not.toMatch(/url\(|https?:|href/);
    const labels = [...svg.matchAll(/<text class="(?:label|note-text)"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels.length).toBeGreaterThan(trace.steps.length);
    for (const l of labels) expect(l.replace(/&[a-z#0-9]+;/g, '_').length).toBeLessThanOrEqual(TEXT_CHARS_MAX);
    expect(svg).toContain(escapeHtml('<b>'));
  });

  it('draws a model without outbox participants on one System lane', () => {
    const t: Trace = { ...trace, header: { ...trace.header, model: 'toy', violation: null }, steps: trace.steps.slice(0, 3).map((s) => ({ ...s, event: { kind: 'tick' }, tags: [] })) };
    const layout = sequenceLayout(lanesOf(t, statesOf(t)), stepDrawings(t, statesOf(t)), null);
    expect(layout.lanes.map((l) => l.id)).toEqual(['System']);
    expect(layout.steps.slice(1).map((s) => s.shape)).toEqual(['self', 'self', 'self']);
  });
});
