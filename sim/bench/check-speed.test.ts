import { describe, expect, it } from 'vitest';
import { mainJobWorkers, replaceSection, sectionOf, simulatedSteps } from './check-speed.ts';
import { BOUNDS_DEFAULT, runShard } from '../check.ts';
import { failClosed } from '../../model/catalog/index.ts';

describe('replaceSection', () => {
  const doc = ['# Benchmarks', '', 'intro', '', '## A', 'a1', '', '## Mine', 'old', '', '## B', 'b1', ''].join('\n');

  it('replaces only the section under the heading, keeping the others (sections other benches wrote)', () => {
    expect(replaceSection(doc, '## Mine', ['## Mine', 'new', ''])).toBe(['# Benchmarks', '', 'intro', '', '## A', 'a1', '', '## Mine', 'new', '', '## B', 'b1', ''].join('\n'));
  });

  it('replaces a last section up to the end, and appends the section when the heading is absent', () => {
    expect(replaceSection(doc, '## B', ['## B', 'b2', ''])).toBe(['# Benchmarks', '', 'intro', '', '## A', 'a1', '', '## Mine', 'old', '', '## B', 'b2', ''].join('\n'));
    expect(replaceSection('# Benchmarks\n\nintro\n', '## New', ['## New', 'x', ''])).toBe('# Benchmarks\n\nintro\n\n## New\nx\n\n');
  });

  it("stops at another generator's marker line, which the next section's generator looks for", () => {
    const marked = ['## Mine', 'old', '', '<!-- other:start -->', '## Other', 'o', '<!-- other:end -->', ''].join('\n');
    expect(replaceSection(marked, '## Mine', ['## Mine', 'new', ''])).toBe(['## Mine', 'new', '', '<!-- other:start -->', '## Other', 'o', '<!-- other:end -->', ''].join('\n'));
  });
});

describe('sectionOf', () => {
  it('gives the lines under a heading up to the next heading or marker line, or null when the heading is absent', () => {
    const doc = ['# Benchmarks', '', '## Mine', 'old', '', '## B', 'b1', '', '## Last', 'l1', '<!-- other:start -->', 'o', ''].join('\n');
    expect(sectionOf(doc, '## Mine')).toEqual(['## Mine', 'old', '']);
    expect(sectionOf(doc, '## Last')).toEqual(['## Last', 'l1']);
    expect(sectionOf(doc, '## None')).toBeNull();
    expect(replaceSection(doc, '## Mine', sectionOf(doc, '## Mine') ?? [])).toBe(doc);
  });
});

describe('mainJobWorkers', () => {
  it("reads the workers the main job's header names, and the load that lowered them", () => {
    const header = 'outbox-sim check: rules fail-closed; seeds 1..5000; broker drawn per seed; 2 workers\n  small worlds: ...';
    expect(mainJobWorkers(header, 2)).toBe("by default on 2 workers of the machine's 2 cores");
    const busy = 'outbox-sim check: rules fail-closed; seeds 1..5000; broker drawn per seed; 1 worker (load 1.9 on 2 cores; --workers N to choose)';
    expect(mainJobWorkers(busy, 2)).toBe("by default on 1 worker of the machine's 2 cores, lowered by a load of 1.9");
    expect(mainJobWorkers('RESULT: no property violated', 2)).toBe('its header named no workers');
  });
});

describe('simulatedSteps', () => {
  it("counts the steps long life and deep cycles took again beside the seeds' own, as the shard's time holds both", () => {
    const r = runShard({ rules: failClosed, oldRules: null, seedStart: 1, seeds: 400, broker: null, bounds: BOUNDS_DEFAULT }, 401, 801);
    const life = r.longLife;
    expect(life).toBeDefined();
    // In seeds 401 to 800, records come back bigger (long life: seeds 501, 662 and 749, of fail-closed's six in seeds 1 to 1,000) and, in the seeds deep cycles sample (one in 16), back at all: the count is not the runs' alone.
    expect(life?.steps).toBeGreaterThan(0);
    expect(life?.deep.steps).toBeGreaterThan(0);
    expect(simulatedSteps(r)).toEqual({ steps: r.steps + (life?.steps ?? 0) + (life?.deep.steps ?? 0), again: (life?.steps ?? 0) + (life?.deep.steps ?? 0) });
    expect(simulatedSteps({ steps: 7, longLife: undefined })).toEqual({ steps: 7, again: 0 });
  });
});
