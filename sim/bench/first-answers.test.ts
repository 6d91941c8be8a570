import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bestOf, CATALOG_FLAW, childrenCpuSeconds, counterexample, FOUND_LINE, foundWhere, timeToLine } from './first-answers.ts';

const now = (): number => Number(process.hrtime.bigint()) / 1e9;

/** A process that prints a line, waits, prints the violation line in two writes, waits again (from that line, so a loaded machine cannot shorten the gap) and exits. */
const SCRIPT = [
  "process.stdout.write('outbox-sim check: rules r\\n');",
  "setTimeout(() => { process.stdout.write('  found after 0.12 s: no-silent-loss at seed 8 '); process.stdout.write('(b=C is gone)\\n'); setTimeout(() => process.exit(1), 600); }, 300);",
].join('\n');

describe('timeToLine', () => {
  it('timestamps the first whole line that matches, not the first output, and then the exit', async () => {
    const r = await timeToLine(process.execPath, ['-e', SCRIPT], FOUND_LINE, now);
    expect(r.line).toBe('  found after 0.12 s: no-silent-loss at seed 8 (b=C is gone)');
    expect(r.lineSeconds).toBeGreaterThanOrEqual(0.28);
    expect(r.exitSeconds - (r.lineSeconds ?? 0)).toBeGreaterThanOrEqual(0.25);
    expect(r.status).toBe(1);
  });
  it('reports no line when none matches, and times the exit', async () => {
    const r = await timeToLine(process.execPath, ['-e', SCRIPT], /never printed/, now);
    expect(r).toMatchObject({ line: null, lineSeconds: null, status: 1 });
    expect(r.exitSeconds).toBeGreaterThanOrEqual(0.55);
  });
  it.runIf(childrenCpuSeconds() !== null)("counts the child's CPU seconds, not its waiting", async () => {
    const busy = await timeToLine(process.execPath, ['-e', 'while (process.cpuUsage().user < 400_000);'], null, now);
    const idle = await timeToLine(process.execPath, ['-e', 'setTimeout(() => undefined, 400)'], null, now);
    expect(busy.cpuSeconds).toBeGreaterThanOrEqual(0.38);
    expect(idle.cpuSeconds).toBeLessThan(0.3);
  });
});

describe('bestOf', () => {
  it('keeps the run with the earliest line awaited, or the earliest exit', async () => {
    const runs = [
      { lineSeconds: 0.9, exitSeconds: 1.0, cpuSeconds: 1, line: 'a', status: 1 },
      { lineSeconds: 0.5, exitSeconds: 2.0, cpuSeconds: 2, line: 'b', status: 1 },
      { lineSeconds: null, exitSeconds: 0.2, cpuSeconds: 3, line: null, status: 0 },
    ];
    const from = () => {
      let i = 0;
      return () => Promise.resolve(runs[i++]);
    };
    expect((await bestOf(3, true, from())).line).toBe('b');
    expect((await bestOf(3, false, from())).cpuSeconds).toBe(3);
  });
});

describe('foundWhere', () => {
  it('names the property and the small world or seed', () => {
    expect(foundWhere('  found after 0.85 s: no-silent-loss in small world "default" (a=A is gone); trace t (16 steps)')).toBe('no-silent-loss in small world "default" (0.85 s after the check started)');
    expect(foundWhere('  found after 0.12 s: honest-park at seed 1 (record a is PARKED)')).toBe('honest-park at seed 1 (0.12 s after the check started)');
    expect(foundWhere(null)).toBe('no violation reported');
  });
});

describe('counterexample', () => {
  it("writes a trace of the catalog's first flaw for the start-up table to read back, and returns its path", () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-first-answers-'));
    try {
      const path = counterexample(join(dir, 'trace'));
      expect(path.startsWith(join(dir, 'trace'))).toBe(true);
      expect(path.endsWith('.trace.jsonl')).toBe(true);
      const header = JSON.parse(readFileSync(path, 'utf8').split('\n')[0]) as Record<string, unknown>;
      expect(JSON.stringify(header)).toContain(JSON.stringify(CATALOG_FLAW));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
