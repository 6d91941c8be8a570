/**
 * The suite on worker threads gives the suite on one thread: the same
 * worlds in the same order with the same states and violations, whatever
 * order they finish in, and `--stop-on-first` stops at the same world.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckReport } from './check-report.ts';
import { rulesPair } from './cli/check-command.ts';
import { main } from './cli/main.ts';
import { exploreSuite, smallWorlds, type SmallWorldResult } from './small-worlds.ts';
import { exploreSuiteParallel } from './small-worlds-pool.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'suite-pool-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A world's result without its timing. */
const comparable = (r: SmallWorldResult) => ({ ...r, seconds: 0 });

async function json(...argv: string[]): Promise<{ code: number; report: CheckReport }> {
  const out: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: () => undefined, tty: false });
  return { code, report: JSON.parse(out.join('\n')) as CheckReport };
}

describe('the small worlds on worker threads', () => {
  it('give the one-thread suite: same worlds, order, states and verdicts, reported in suite order whatever order they finish in', async () => {
    const replayCommand = (p: string) => `replay ${p}`;
    let clock = 0;
    const base = { oldRules: null, symmetry: true, now: () => clock++, replayCommand, stopReason: () => null, inProcess: () => { throw new Error('no world should fall back'); } };
    // Three cheap clean worlds of fail-closed, finishing in whatever order.
    const clean = smallWorlds(false).filter((w) => ['broker id-409', '1 engine, attempts 3, crashes 2, broker key', '1 engine, dedupe window 2'].includes(w.name));
    const one = exploreSuite(await rulesPair('fail-closed', undefined), clean, { outDir: join(tmp, 'one'), replayCommand, now: () => 0 });
    const seen: number[] = [];
    const two = await exploreSuiteParallel(clean, 2, { ...base, rules: 'fail-closed', outDir: join(tmp, 'one'), stopOnFirst: false, onWorld: (i) => seen.push(i) });
    expect(two.map(comparable)).toEqual(one.map(comparable));
    expect(seen).toEqual([0, 1, 2]);
  }, 300_000);

  it('check --workers 2 --stop-on-first: the report of --workers 1 (the suite stops at the first violating world)', async () => {
    const argv = ['check', '--rules', 'fresh-cycle-after-definite', '--small-worlds-only', '--stop-on-first', '--json'];
    const one = await json(...argv, '--workers', '1', '--out', join(tmp, 'w1'));
    const two = await json(...argv, '--workers', '2', '--out', join(tmp, 'w2'));
    expect([one.code, two.code]).toEqual([1, 1]);
    const strip = (r: CheckReport) => ({ ...r, seconds: 0, smallWorlds: r.smallWorlds === null ? null : { ...r.smallWorlds, seconds: 0, worlds: r.smallWorlds.worlds.map((w) => ({ ...comparable(w), violations: w.violations.map((v) => ({ ...v, path: '', replay: '' })) })) }, violations: r.violations.map((v) => ({ ...v, path: '', replay: '' })) });
    expect(strip(two.report)).toEqual(strip(one.report));
    expect(two.report.smallWorlds?.worlds.map((w) => w.name)).toEqual(['default']);
  }, 300_000);
});
