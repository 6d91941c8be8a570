/**
 * The HTML page as a file: self-contained (nothing to fetch), with the panels
 * and controls the browser test drives, and trace text that can never close
 * the script holding the states. What the page shows is tested in a real
 * browser in browser.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trace } from '../../sim/trace-format.ts';
import { escapeHtml, renderHtml, scriptJson } from './html.ts';
import { statesOf } from './states.ts';
import { phantomSample, removeDir, tempDir, type Sample } from './test-traces.ts';

const dir = tempDir('render-html-');
let sample: Sample;
let html: string;
beforeAll(async () => {
  sample = await phantomSample(dir);
  html = renderHtml(sample.trace, { path: sample.path });
});
afterAll(() => removeDir(dir));

function embedded(page: string): { states: unknown[]; steps: { n: number; label: string }[]; violation: unknown } {
  const m = /<script type="application\/json" id="trace-data">([\s\S]*?)<\/script>/.exec(page);
  if (m === null) throw new Error('no embedded trace data');
  return JSON.parse(m[1]) as { states: unknown[]; steps: { n: number; label: string }[]; violation: unknown };
}

describe('renderHtml', () => {
  it('is one document that loads nothing: no external script, style, font, image or link', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/\bsrc\s*=/i);
    expect(html).not.toMatch(/@import|url\(|https?:\/\//i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`);
  });

  it('has the panels and controls with stable ids', () => {
    for (const id of ['panel-records', 'panel-claims', 'panel-files', 'panel-broker', 'panel-engines', 'step-label', 'violation', 'steps', 'prev', 'next', 'first', 'last']) {
      expect(html).toContain(`id="${id}"`);
    }
  });

  it('draws the sequence diagram and the statechart inline, and embeds the diffs and engine states the script shows', () => {
    for (const id of ['panel-sequence', 'panel-statechart', 'panel-diff', 'store-diff']) expect(html).toContain(`id="${id}"`);
    expect(html.match(/<svg id="sequence"/g)).toHaveLength(1);
    expect(html.match(/<svg id="statechart"/g)).toHaveLength(1);
    expect(html.match(/<g class="msg[^"]*" data-step=/g)).toHaveLength(sample.trace.steps.length + 1);
    const data = JSON.parse(/<script type="application\/json" id="trace-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}') as { diffs: unknown[]; engines: unknown[]; moves: unknown[] };
    for (const key of ['diffs', 'engines', 'moves'] as const) expect(data[key]).toHaveLength(sample.trace.steps.length + 1);
  });

  it('leaves the statechart out for a model with no engines', () => {
    const trace: Trace = { ...sample.trace, header: { ...sample.trace.header, model: 'toy', violation: null }, steps: [] };
    const page = renderHtml(trace, { path: 'toy.trace.jsonl' });
    expect(page).toContain('<svg id="sequence"');
    expect(page).not.toContain('<svg id="statechart"');
  });

  it('embeds every rebuilt state and names the violation in a banner and in the step list', () => {
    const data = embedded(html);
    expect(data.states).toEqual(JSON.parse(JSON.stringify(statesOf(sample.trace))));
    expect(data.steps.map((s) => s.n)).toEqual([0, ...sample.trace.steps.map((s) => s.n)]);
    expect(data.violation).toEqual(sample.trace.header.violation);
    expect(html).toMatch(/<div id="violation"[^>]*><strong>Violation: <span data-field="property">no-phantom-delivery<\/span>/);
    const vStep = sample.trace.header.violation?.step;
    expect(html).toMatch(new RegExp(`<li data-step="${vStep}" data-testid="step-${vStep}" class="[^"]*violation[^"]*"`));
  });

  it('keeps trace text inert: no way out of the script element, no markup from labels', () => {
    const evil = '</script><script>alert(1)</script><img src=x onerror=alert(2)>&amp;\u2028';
    const trace: Trace = {
      ...sample.trace,
      header: { ...sample.trace.header, violation: sample.trace.header.violation === null ? null : { ...sample.trace.header.violation, detail: evil } },
      steps: sample.trace.steps.map((s, i) => (i === 0 ? { ...s, label: evil } : s)),
    };
    const page = renderHtml(trace, { path: 'a "quoted" <path>.jsonl' });
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
    expect(embedded(page).steps[1].label).toBe(evil);
  });
});

describe('escaping helpers', () => {
  it('escapes HTML text and attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('writes JSON with no <, > or & and parses back to the same value', () => {
    const value = { s: '</script><!-- & \u2028 \u2029 -->' };
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
