/** The text table of a fresh-cycle counterexample: one numbered row per step, the violation marked, the replay command. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderText } from './text.ts';
import { phantomFacts, phantomSample, removeDir, tempDir, type Sample } from './test-traces.ts';

const dir = tempDir('render-text-');
let sample: Sample;
let text: string;
beforeAll(async () => {
  sample = await phantomSample(dir);
  text = renderText(sample.trace, { path: sample.path });
});
afterAll(() => removeDir(dir));

describe('renderText', () => {
  it('opens with the trace, its rules, the world it ran in and the violation', () => {
    const [title, world, violation] = text.split('\n');
    expect(title).toContain(`trace ${sample.trace.id}`);
    expect(title).toContain('rules fresh-cycle');
    expect(world).toMatch(/^world: \d+ ids?, \d+ bod(y|ies) per id( \(the same for every id\))?, \d+ engines?, attempts limit \d+, /);
    expect(violation).toContain('violation at step');
    expect(violation).toContain('no-phantom-delivery');
    expect(violation).toContain(sample.violation.detail);
  });

  it('has a header row and one numbered row per step, in order', () => {
    const lines = text.split('\n');
    const head = lines.findIndex((l) => /^\s*n\s+phase\s+group\s+label\s+change$/.test(l));
    expect(head).toBeGreaterThan(0);
    const rows = lines.slice(head + 1, head + 1 + sample.trace.steps.length);
    rows.forEach((row, i) => {
      const step = sample.trace.steps[i];
      expect(row).toMatch(new RegExp(`^\\s*${step.n}\\s+${step.phase === 'fault' ? 'safety' : 'liveness'}\\s+${step.group}\\s+`));
      expect(row).toContain(step.label);
    });
  });

  it('summarises the changes: a lost reply stores one body, the last step reports another delivered and is marked', () => {
    const { subject, delivered, held } = phantomFacts(sample);
    expect(delivered).not.toBe(held);
    const lines = text.split('\n');
    expect(lines.some((l) => l.includes('lost-reply') && l.includes(`broker holds ${subject} = ${held}`))).toBe(true);
    const last = lines.find((l) => l.includes('<- no-phantom-delivery'));
    expect(last).toContain(`record ${subject}: DELIVERED ${delivered}`);
    expect(last).toMatch(new RegExp(`^\\s*${sample.trace.header.violation?.step}\\s`));
  });

  it('ends with the one command that replays the trace', () => {
    expect(text.trimEnd().split('\n').at(-1)).toBe(`replay: npx outbox-sim replay ${sample.path}`);
  });

  it('prints no control characters, whatever a label holds', () => {
    const trace = { ...sample.trace, steps: sample.trace.steps.map((s, i) => (i === 0 ? { ...s, label: 'evil\u001b[2Jlabel\nnext' } : s)) };
    const out = renderText(trace, { path: 'x.trace.jsonl' });
    expect(out).toContain('evil\\u001b[2Jlabel\\nnext');
    expect(out.split('\n').filter((l) => l.includes('evil'))).toHaveLength(1);
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
