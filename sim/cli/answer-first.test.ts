/**
 * Answer first: `check` prints each violation with its replay command as
 * soon as it is shrunk, before the seeds still to run; `--stop-on-first`
 * ends the run at the first violation (exit 1) with the seeds run so far,
 * or at one in a small world before the swarm runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './test-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-answer-first-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('check answers first', () => {
  it('prints a violation and its replay command before the summary, and the summary reuses its trace', async () => {
    const r = await runCli('check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '60', '--out', join(dir, 'a'));
    expect(r.code).toBe(1);
    const found = r.out.findIndex((l) => /^ {2}found after [\d.]+ s: no-silent-loss at seed 2 /.test(l));
    const summary = r.out.findIndex((l) => l.startsWith('RESULT:'));
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(summary);
    expect(r.out[found + 1]).toMatch(/^ {4}replay: .*replay .*\.trace\.jsonl$/);
    const path = /trace (\S+\.trace\.jsonl)/.exec(r.out[found])?.[1];
    expect(r.out.slice(summary).some((l) => path !== undefined && l.includes(path))).toBe(true);
    expect(r.out.some((l) => l.startsWith('  60 runs'))).toBe(true);
  }, 60_000);

  it('--stop-on-first ends the run at the first violating seed, exit 1, and says so', async () => {
    // fresh-cycle's first violating seed is 2 (8 before poison joined the covering rows, 6 before alter-payload; a covering row; 2 before each kind a row switches on was given what it needs).
    const r = await runCli('check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '5000', '--stop-on-first', '--out', join(dir, 'b'));
    expect(r.code).toBe(1);
    expect(r.out).toContain('STOPPED AT THE FIRST VIOLATION (--stop-on-first): 2 of 5,000 seeds ran; the rest were not run');
    expect(r.out.some((l) => l.startsWith('  2 runs'))).toBe(true);
    const json = await runCli('check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '5000', '--stop-on-first', '--json', '--out', join(dir, 'c'));
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out.join('\n')) as { runs: number; stopped: unknown };
    expect(report.stopped).toEqual({ reason: 'first-violation', runs: 2, seeds: 5000, smallWorld: null });
  }, 60_000);

  it('--stop-on-first ends the run at a violation in a small world, before the rest of the suite and the swarm', async () => {
    const r = await runCli('check', '--rules', 'fresh-cycle', '--stop-on-first', '--out', join(dir, 'e'));
    expect(r.code).toBe(1);
    const found = r.out.findIndex((l) => /^ {2}found after [\d.]+ s: no-silent-loss in small world "default" /.test(l));
    expect(found).toBeGreaterThan(0);
    expect(r.out[found + 1]).toMatch(/^ {4}replay: .*replay .*\.trace\.jsonl$/);
    expect(r.out).toContain('STOPPED AT THE FIRST VIOLATION (--stop-on-first): found in small world "default"; the rest of the suite and the swarm\'s 5,000 seeds were not run');
    const json = await runCli('check', '--rules', 'fresh-cycle', '--stop-on-first', '--json', '--out', join(dir, 'f'));
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out.join('\n')) as { runs: number; swarm: boolean; stopped: unknown; smallWorlds: { worlds: { name: string }[] } };
    expect(report.stopped).toEqual({ reason: 'first-violation', runs: 0, seeds: 5000, smallWorld: 'default' });
    expect(report).toMatchObject({ runs: 0, swarm: false, ok: false });
    // The suite stopped at its first world: the other worlds were not searched.
    expect(report.smallWorlds.worlds.map((w) => w.name)).toEqual(['default']);
  }, 60_000);

  it('--stop-on-first changes nothing when no seed violates (exit 0, every seed run)', async () => {
    const r = await runCli('check', '--swarm-only', '--seeds', '40', '--stop-on-first', '--json', '--out', join(dir, 'd'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out.join('\n'))).toMatchObject({ stopped: null, ok: true });
  }, 60_000);
});
