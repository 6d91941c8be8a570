/**
 * The library API returns what the command's `--json` prints (the same
 * function computes both), takes rule sets as catalog names, paths or
 * values, and the vitest helper fails with the violation's summary, trace
 * path and replay command.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check, compare, diff, explore, replay, UsageError } from './commands.ts';
import { expectHolds, failuresOf, outboxMatchers } from './vitest.ts';
import { runCli } from '../cli/test-cli.ts';
import corruptAsAbsent from '../../properties/mutants/corrupt-as-absent.ts';
import keyFormatChanged from '../../properties/rule-api/key-format-changed.ts';
import { failClosed } from '../../model/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A result without its timings and memory figures, which differ from run to run. */
function steady(o: object): unknown {
  return JSON.parse(JSON.stringify(o, (k, v: unknown) => (/^(seconds|statesPerSecond|resident.*|.*BytesPerState)$/.test(k) ? 0 : v)));
}

// The check tests use fresh-cycle-after-definite: like fresh-cycle it fails the default world, but it fails every
// other small world too, early, so its suite costs half fresh-cycle's CPU (which searches three worlds to the end);
// each test runs the suite twice (API and CLI).
describe('library API', () => {
  it('check resolves to the object check --json prints', async () => {
    const out = join(dir, 'check');
    const fromApi = await check({ rules: 'fresh-cycle-after-definite', seeds: 40, out });
    const cli = await runCli('check', '--rules', 'fresh-cycle-after-definite', '--seeds', '40', '--out', out, '--json');
    expect(cli.code).toBe(1);
    expect(steady(fromApi)).toEqual(steady(JSON.parse(cli.out[0]) as object));
    expect(fromApi.ok).toBe(false);
    // Both halves: the small worlds first (fresh-cycle-after-definite fails the default world), then the swarm with its pair coverage.
    expect(fromApi.smallWorlds?.ok).toBe(false);
    expect(fromApi.coverage?.pairs).toBeGreaterThan(0);
  });

  it('check takes swarmOnly, smallWorldsOnly and operator as check takes --swarm-only, --small-worlds-only and --operator', async () => {
    const out = join(dir, 'halves');
    const swarm = await check({ rules: 'fresh-cycle-after-definite', seeds: 20, swarmOnly: true, operator: 10, out });
    const swarmCli = await runCli('check', '--rules', 'fresh-cycle-after-definite', '--seeds', '20', '--swarm-only', '--operator', '10', '--out', out, '--json');
    expect(steady(swarm)).toEqual(steady(JSON.parse(swarmCli.out[0]) as object));
    expect(swarm).toMatchObject({ smallWorlds: null, swarm: true, runs: 20 });
    const small = await check({ rules: 'fresh-cycle-after-definite', smallWorldsOnly: true, out });
    const smallCli = await runCli('check', '--rules', 'fresh-cycle-after-definite', '--small-worlds-only', '--out', out, '--json');
    expect(steady(small)).toEqual(steady(JSON.parse(smallCli.out[0]) as object));
    expect(small).toMatchObject({ swarm: false, coverage: null, runs: 0, ok: false });
    // A check that fails in its small worlds alone fails expectHolds too, naming the world.
    expect(() => expectHolds(small)).toThrow(/fresh-cycle-after-definite: \S+ violated in small world "default" \(\d+ steps, shortest\)[^\n]*\n {2}trace: \S+\.trace\.jsonl\n {2}replay: /);
    await expect(check({ swarmOnly: true, smallWorldsOnly: true })).rejects.toThrow(/exclude each other/);
  });

  it('check takes attempts as check takes --attempts: the attempts limit of every seed', async () => {
    const out = join(dir, 'attempts');
    const fromApi = await check({ seeds: 20, swarmOnly: true, attempts: 25, out });
    const cli = await runCli('check', '--swarm-only', '--seeds', '20', '--attempts', '25', '--out', out, '--json');
    expect(steady(fromApi)).toEqual(steady(JSON.parse(cli.out[0]) as object));
    expect(fromApi.steps).not.toBe((await check({ seeds: 20, swarmOnly: true, out })).steps);
    await expect(check({ seeds: 5, swarmOnly: true, attempts: 0, out })).rejects.toThrow('--attempts must be between 1 and 100, got 0');
  });

  it('check runs the upgrade from the catalog rule set a rule set extends, and takes upgrade: false as --no-upgrade', async () => {
    const out = join(dir, 'upgrade');
    // Safe alone, flawed beside fail-closed (a key format changed): found only with the upgrade.
    const rules = 'properties/rule-api/key-format-changed.ts';
    const alone = await check({ rules, smallWorldsOnly: true, upgrade: false, out });
    expect(alone).toMatchObject({ ok: true, upgrade: { from: 'fail-closed', checked: false } });
    const upgraded = await check({ rules: keyFormatChanged, smallWorldsOnly: true, stopOnFirst: true, out });
    expect(upgraded).toMatchObject({ ok: false, upgrade: { from: 'fail-closed', checked: true } });
  });

  it('explore resolves to the object explore --json prints', async () => {
    const out = join(dir, 'explore');
    const fromApi = await explore({ rules: 'fail-closed', ids: 1, bodies: 1, engines: 1, out });
    const cli = await runCli('explore', '--rules', 'fail-closed', '--ids', '1', '--bodies', '1', '--engines', '1', '--out', out, '--json');
    expect(steady(fromApi)).toEqual(steady(JSON.parse(cli.out[0]) as object));
    expect(fromApi.proof).toBe(true);
  });

  it('explore takes por as explore takes --por', async () => {
    const out = join(dir, 'explore-por');
    const fromApi = await explore({ rules: 'fail-closed', ids: 1, bodies: 1, engines: 2, por: true, out });
    const cli = await runCli('explore', '--rules', 'fail-closed', '--ids', '1', '--bodies', '1', '--engines', '2', '--por', '--out', out, '--json');
    expect(steady(fromApi)).toEqual(steady(JSON.parse(cli.out[0]) as object));
    expect(fromApi.por).not.toBeNull();
    expect((await explore({ rules: 'fail-closed', ids: 1, bodies: 1, engines: 2, out })).por).toBeNull();
  });

  it('takes a rule set as a value, and replays what it wrote', async () => {
    const out = join(dir, 'value');
    const report = await check({ rules: corruptAsAbsent, seeds: 120, swarmOnly: true, out });
    expect(report.rules).toBe('mutant-corrupt-as-absent');
    const v = report.violations[0];
    expect(v.replay).toBe(`npx outbox-sim replay ${v.path} --under '<the file that exports mutant-corrupt-as-absent>'`);
    expect(await replay({ trace: v.path, under: 'properties/mutants/corrupt-as-absent.ts' })).toMatchObject({ trace: v.trace, verdict: 'still violates', property: v.property, departedAt: null });
    expect(await replay({ trace: v.path, under: corruptAsAbsent })).toMatchObject({ verdict: 'still violates', departedAt: null });
    expect(await replay({ trace: v.path, under: failClosed })).toMatchObject({ verdict: 'no longer violates' });
    // A value where the recorded rule file goes: one clear refusal, not a TypeError from inside.
    await expect(replay({ trace: v.path, rules: corruptAsAbsent as unknown as string })).rejects.toThrow(/^replay: rules is the path of the rule file the trace was recorded with; .* pass it as under$/);
    // No file to replay it exactly with: the refusal says what replays it.
    await expect(replay({ trace: v.path })).rejects.toThrow(
      /^the trace was recorded from the rule set mutant-corrupt-as-absent given as a value, not from a file, so it cannot be replayed exactly: pass under with that rule set, /,
    );
  });

  it('loads, probes and copies a rule file once per content, however many calls run it; an edited file afresh', async () => {
    // The file counts its evaluations (its module's top level) in a global of its own.
    const path = join(dir, 'counted.ts');
    const evaluations = (): number => (globalThis as { __outboxSimCounted?: number }).__outboxSimCounted ?? 0;
    const write = (summary: string) =>
      writeFileSync(path, `import { extendRules, failClosed } from 'outbox-sim';
const g = globalThis as { __outboxSimCounted?: number };
g.__outboxSimCounted = (g.__outboxSimCounted ?? 0) + 1;
export default extendRules(failClosed, { name: 'counted', summary: '${summary}' });
`);
    write('fail-closed, counted');
    const out = join(dir, 'counted');
    await check({ rules: path, seeds: 1, swarmOnly: true, out });
    // The rule set, the probe's two copies (rules-state-probe.ts) and the copy a check's witnesses run in again.
    expect(evaluations()).toBe(4);
    for (let i = 0; i < 3; i++) await check({ rules: path, seeds: 1, swarmOnly: true, out });
    await explore({ rules: path, maxStates: 10, out });
    expect(evaluations()).toBe(4);
    write('fail-closed, counted, edited');
    await check({ rules: path, seeds: 1, swarmOnly: true, out });
    expect(evaluations()).toBe(8);
  });

  it('a catalog rule set given as a value is named by its catalog name', async () => {
    const report = await check({ rules: failClosed, seeds: 5, swarmOnly: true, out: join(dir, 'catalog') });
    expect(report).toMatchObject({ ok: true, rules: 'fail-closed', runs: 5 });
  });

  it('compare and diff resolve to their JSON', async () => {
    const table = await compare({ rules: ['fail-closed', corruptAsAbsent], seeds: 30, maxStates: 2000, out: join(dir, 'compare') });
    expect(new Set(table.rows.map((r) => r.rules))).toEqual(new Set(['fail-closed', 'mutant-corrupt-as-absent']));
    // A violated row's failure names the trace's file, not its id.
    const failed = failuresOf(table);
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect(f.path !== null && existsSync(f.path) && f.path.endsWith('.trace.jsonl')).toBe(true);
    const d = await diff({ old: 'fail-closed', new: 'fresh-cycle', maxStates: 200_000, out: join(dir, 'diff') });
    expect(d.differ).toBe(true);
    if (d.differ) expect(d.old.rules).toBe('fail-closed');
  });

  it('bad options reject with the command line error', async () => {
    await expect(check({ seeds: 0 })).rejects.toThrow(UsageError);
    await expect(check({ rules: 'no-such-rules' })).rejects.toThrow(/unknown rule set "no-such-rules"/);
    await expect(check({ rules: corruptAsAbsent, workers: 2 })).rejects.toThrow(/workers: 1/);
  });
});

describe('outbox-sim/vitest', () => {
  it('fails with the summary, the trace path and the replay command', async () => {
    const report = await check({ rules: 'properties/mutants/corrupt-as-absent.ts', seeds: 120, swarmOnly: true, out: join(dir, 'helper') });
    const v = report.violations[0];
    let message = '';
    try {
      expectHolds(report);
    } catch (err) {
      message = (err as Error).message;
    }
    const lines = message.split('\n');
    expect(lines[0]).toBe(`mutant-corrupt-as-absent: ${v.property} violated at seed ${v.seed} (${v.steps} steps): ${v.detail}`);
    expect(lines[1]).toBe(`  trace: ${v.path}`);
    expect(lines[2]).toBe(`  replay: npx outbox-sim replay ${v.path} --rules ./properties/mutants/corrupt-as-absent.ts`);
    expect(outboxMatchers.toHoldEveryProperty(report).pass).toBe(false);
  });

  it('passes when every property holds, and asks for a proof when told', async () => {
    const partial = await explore({ maxStates: 50, out: join(dir, 'partial') });
    expect(() => expectHolds(partial)).not.toThrow();
    expect(() => expectHolds(partial, { proof: true })).toThrow(/no proof: the search stopped at max-states after/);
  });
});
