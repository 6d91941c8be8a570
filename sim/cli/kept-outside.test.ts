/**
 * Violations found where an interrupted (or stopped) check's report does not
 * count, seeds run beside the small worlds and worlds searched past the
 * suite's end, keep their traces, and the summary names them: before, the
 * seeds' traces announced as found were deleted, and the worlds' were left
 * unnamed.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import { BOUNDS_DEFAULT, emptyShard } from '../check.ts';
import { finishCheckOutcome, keptOutsideLine } from './check-command.ts';

const pair = { rules: failClosed, rulesOrigin: { name: 'fail-closed', source: 'catalog', hash: null }, oldRules: null, oldRulesOrigin: null };

function finish(keptOutside: string[], json: boolean): { lines: string[]; result: ReturnType<typeof finishCheckOutcome>['result'] } {
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: () => undefined, tty: false };
  const { result } = finishCheckOutcome(pair, emptyShard(), '/nonexistent', BOUNDS_DEFAULT, 1, json, io, { signal: 'SIGINT', runs: 0, seeds: 100 }, { keptOutside });
  return { lines, result };
}

describe('traces kept outside the report', () => {
  it('are named in one WARNING line under the interrupt, and in JSON as keptOutside', () => {
    const text = finish(['out/a.trace.jsonl', 'out/b.trace.jsonl'], false);
    expect(text.lines[1]).toBe(
      'WARNING: 2 violations were found in seeds or small worlds this report does not count (the suite ended before their turn); their traces replay: out/a.trace.jsonl, out/b.trace.jsonl',
    );
    expect(text.result.keptOutside).toEqual(['out/a.trace.jsonl', 'out/b.trace.jsonl']);
    const json = finish(['out/a.trace.jsonl'], true);
    expect((JSON.parse(json.lines[0]) as { keptOutside: string[] }).keptOutside).toEqual(['out/a.trace.jsonl']);
  });
  it('say nothing when there are none', () => {
    const text = finish([], false);
    expect(text.lines.some((l) => l.includes('does not count'))).toBe(false);
    expect(text.result.keptOutside).toBeUndefined();
  });
  it('one', () => {
    expect(keptOutsideLine(['x.trace.jsonl'])).toMatch(/^WARNING: a violation was found .*; its trace replays: x\.trace\.jsonl$/);
  });
});
