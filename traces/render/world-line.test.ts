/**
 * The world line of a text or Markdown trace (world-line.ts): the sizes,
 * the broker and the settings that were on, in words; under version skew,
 * which engine ran which rule set.
 */
import { describe, expect, it } from 'vitest';
import type { Trace } from '../../sim/trace-format.ts';
import type { TraceState } from './states.ts';
import { worldLines } from './world-line.ts';

const trace = (options: unknown, oldRules: Trace['header']['oldRules'] = null): Trace =>
  ({ header: { model: 'outbox', options, rules: { name: 'mine', source: './mine.ts', hash: null }, oldRules }, steps: [] }) as unknown as Trace;
/** A trace's states as statesOf rebuilds them: e1 on the old rules, e2 (started later) on the new. */
const states = [{ engines: [{ pid: 1, version: 'old' }] }, { engines: [{ pid: 1, version: 'old' }, { pid: 2, version: 'new' }] }] as unknown as TraceState[];

describe('the world line', () => {
  it('says the sizes, the broker and the settings that were on, in words', () => {
    const options = { ids: 2, longIds: true, bodiesPerId: 1, sameBodies: true, engines: 1, attemptsMax: 3, crashesMax: 0, corruptionsMax: 1, operatorActionsMax: 2, broker: 'key', settings: { ticks: 2, lease: 1, stableIds: 0 } };
    expect(worldLines(trace(options), states)).toEqual([
      'world: 2 ids named alike (eu-west-1.tenant-42.order-000017, ...), 1 body per id (the same for every id), 1 engine, attempts limit 3, no crash, at most 1 corruption, at most 2 operator actions, broker key, clock to tick 2, lease 1',
    ]);
  });
  it('names which engine ran which rule set under version skew, and nothing for a trace of another model', () => {
    const skewed = worldLines(trace({ ids: 1, engines: 2 }, { name: 'fail-closed', source: 'catalog', hash: null }), states);
    expect(skewed).toEqual(['world: 1 id, 2 engines', 'engines: e1 old rules: fail-closed; e2 new rules: mine']);
    expect(worldLines({ header: { model: 'receipts', options: {}, oldRules: null }, steps: [] } as unknown as Trace, states)).toEqual([]);
  });
});
