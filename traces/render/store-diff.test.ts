/** The store's change at a step, as rows before and after. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statesOf } from './states.ts';
import { storeDiffs } from './store-diff.ts';
import { phantomFacts, phantomSample, removeDir, tempDir, type PhantomFacts, type Sample } from './test-traces.ts';
import { viewsOf } from './world-view.ts';

const dir = tempDir('render-store-diff-');
let sample: Sample;
let facts: PhantomFacts;
beforeAll(async () => {
  sample = await phantomSample(dir);
  facts = phantomFacts(sample);
});
afterAll(() => removeDir(dir));

describe('storeDiffs', () => {
  it('shows the lost reply as the broker row appearing and the record unchanged', () => {
    const diffs = storeDiffs(viewsOf(statesOf(sample.trace)));
    expect(diffs).toHaveLength(sample.trace.steps.length + 1);
    expect(diffs[0]).toEqual([]);
    const lost = sample.trace.steps.find((s) => s.label.includes('lost-reply'))?.n ?? -1;
    expect(diffs[lost]).toEqual([{ panel: 'broker', key: facts.subject, columns: ['id', 'body', 'idempotency key'], before: null, after: [facts.subject, facts.held, expect.stringContaining(`${facts.subject}#`)] }]);
  });

  it('shows the violating step as the record going from READY to DELIVERED, cells before and after', () => {
    const diffs = storeDiffs(viewsOf(statesOf(sample.trace)));
    const v = sample.trace.header.violation?.step ?? -1;
    const record = diffs[v].find((d) => d.panel === 'records' && d.key === facts.subject);
    expect(record?.before?.slice(0, 3)).toEqual([facts.subject, 'READY', facts.delivered]);
    expect(record?.after?.slice(0, 3)).toEqual([facts.subject, 'DELIVERED', facts.delivered]);
  });

  it('is empty for a step that changes only engine memory, and never lists the engines', () => {
    const diffs = storeDiffs(viewsOf(statesOf(sample.trace)));
    expect(diffs.flat().some((d) => (d.panel as string) === 'engines')).toBe(false);
    // An engine step that leaves the store's slots (records, claims, files, broker) as they were.
    const states = statesOf(sample.trace) as Record<string, unknown>[];
    const store = (w: Record<string, unknown>) => JSON.stringify(['records', 'claims', 'live', 'archived', 'quarantined', 'broker'].map((k) => w[k]));
    const quiet = sample.trace.steps.find((s) => JSON.stringify(states[s.n - 1].engines) !== JSON.stringify(states[s.n].engines) && store(states[s.n - 1]) === store(states[s.n]))?.n ?? -1;
    expect(quiet).toBeGreaterThan(0);
    expect(diffs[quiet]).toEqual([]);
  });
});
