/**
 * A trace whose lines carry valid checksums but not the shape this tool
 * writes is one line and exit 2 for every command that reads traces (show,
 * replay, recheck), never a TypeError. The files are sealed here the way
 * sim/trace-format.ts seals them, so only the shape is wrong.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { traceLines, type TraceHeader, type TraceStep } from '../sim/trace-format.ts';
import { readTrace, TraceReadError } from './read.ts';
import { SETTINGS } from '../sim/outbox/events/table.ts';
import { CHECK_TICKS_MAX } from '../sim/outbox/events/clock.ts';
import { removeDir, tempDir } from './render/test-traces.ts';
import { runCli as run } from '../sim/cli/test-cli.ts';

const dir = tempDir('shape-');
afterAll(() => removeDir(dir));

const base = readTrace('traces/corpus/9fc259433b41.trace.jsonl');

/** Writes a trace whose every line is sealed with a correct checksum, in its own folder (for recheck). */
function sealed(name: string, header: unknown, steps: readonly unknown[]): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${name}.trace.jsonl`);
  writeFileSync(path, `${traceLines(header as TraceHeader, steps as TraceStep[]).join('\n')}\n`);
  return path;
}


const withHeader = (patch: Record<string, unknown>) => ({ ...base.header, ...patch });
const withStep = (i: number, patch: Record<string, unknown>) => base.steps.map((s, j) => (j === i ? { ...s, ...patch } : s));

const CASES: { name: string; header: unknown; steps: readonly unknown[]; line: number; where: string }[] = [
  { name: 'rules-null', header: withHeader({ rules: null }), steps: base.steps, line: 1, where: 'rules' },
  { name: 'options-weights', header: withHeader({ options: { ...(base.header.options as object), weights: 'many' } }), steps: base.steps, line: 1, where: 'options.weights' },
  { name: 'options-old-weights', header: withHeader({ options: { ...(base.header.options as object), answerWeights: 'many' } }), steps: base.steps, line: 1, where: 'options.answerWeights' },
  { name: 'engines-billion', header: withHeader({ options: { ...(base.header.options as object), engines: 1e9 } }), steps: base.steps, line: 1, where: 'options.engines' },
  { name: 'violation-step', header: withHeader({ violation: { ...base.header.violation, step: 'last' } }), steps: base.steps, line: 1, where: 'violation.step' },
  { name: 'tags-number', header: base.header, steps: withStep(2, { tags: 5 }), line: 4, where: 'tags' },
  { name: 'event-number', header: base.header, steps: withStep(0, { event: 7 }), line: 2, where: 'event' },
  { name: 'steps-million', header: withHeader({ stepCount: 1_000_000 }), steps: base.steps, line: 1, where: 'stepCount' },
  { name: 'change-list', header: base.header, steps: withStep(1, { change: [1, 2] }), line: 3, where: 'change' },
];

describe('a trace of any world the tool makes reads', () => {
  it('every setting at its largest (a clock to tick 10^12, the largest --ticks): the header is in shape', () => {
    const settings = Object.fromEntries(SETTINGS.map((s) => [s.name, s.max]));
    expect(settings.ticks).toBe(CHECK_TICKS_MAX);
    const path = sealed('largest-settings', withHeader({ options: { ...(base.header.options as object), settings } }), base.steps);
    expect(readTrace(path).header.options).toMatchObject({ settings: { ticks: CHECK_TICKS_MAX } });
  });
});

describe('a sealed trace of the wrong shape', () => {
  it('the base trace reads, so each case below differs from it only in shape', () => {
    expect(base.steps.length).toBe(base.header.stepCount);
  });
  for (const c of CASES) {
    it(`${c.name}: the reader names the line and the field`, () => {
      const path = sealed(c.name, c.header, c.steps);
      let error: unknown = null;
      try {
        readTrace(path);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TraceReadError);
      expect((error as TraceReadError).kind).toBe('bad-shape');
      expect((error as Error).message).toContain(`line ${c.line}`);
      expect((error as Error).message).toContain(`(${c.where}:`);
      expect((error as Error).message).not.toContain('\n');
    });
    it(`${c.name}: show, replay and recheck exit 2 with that one line`, async () => {
      const path = sealed(c.name, c.header, c.steps);
      for (const argv of [['show', path], ['show', path, '--format', 'html'], ['replay', path], ['replay', path, '--rules', 'fail-closed'], ['recheck', join(dir, c.name), '--rules', 'fail-closed']]) {
        const r = await run(...argv);
        expect(r.code, argv.join(' ')).toBe(2);
        expect(r.err).toHaveLength(1);
        expect(r.err[0]).toMatch(new RegExp(`line ${c.line}.* is not shaped as outbox-sim writes it`));
        expect(r.out).toEqual([]);
      }
    });
  }
  it('a header line that is JSON null is a corrupt header, not a TypeError', async () => {
    const folder = join(dir, 'null-header');
    mkdirSync(folder, { recursive: true });
    const path = join(folder, 'n.trace.jsonl');
    writeFileSync(path, 'null\n');
    const r = await run('show', path);
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('line 1 is not an outbox-sim trace header');
  });
});
