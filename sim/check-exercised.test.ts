/**
 * `check` reports the pairs of feature values the runs exercised beside the
 * pairs drawn: each shard keeps the lowest seed that exercised each pair,
 * read off the kinds' counter tags of its runs, and shards merge to the
 * same table however the seeds were split.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failClosed } from '../model/catalog/index.ts';
import type { CheckReport } from './check-report.ts';
import { BOUNDS_DEFAULT, fixedOptions, mergeShards, runShard, seedBounds, steppersFor, type CheckPlan } from './check.ts';
import { main } from './cli/main.ts';
import { runSeed } from './core/random.ts';
import { FENCED_POST_TAG } from './outbox/events/engine-step.ts';
import { kindOf } from './outbox/events/table.ts';
import { swarmOptions, type WorldOptions } from './outbox/options.ts';
import { outboxSystem } from './outbox/outbox-system.ts';
import { coverageOf, pairCoverage, pairLayout } from './outbox/swarm-coverage.ts';

const plan: CheckPlan = { rules: failClosed, oldRules: null, seedStart: 1, seeds: 60, broker: null, bounds: BOUNDS_DEFAULT };
const fixed = fixedOptions(plan);
const layout = pairLayout(fixed);

/**
 * The kinds of the steps a seed's run took, from its recorded events (what the counter tags stand for),
 * but an answer to a POST the engine's rules fenced out: the POST never left the engine, so no answer
 * came and none is counted (events/engine-step.ts; seed 21 takes garbled-unsent so after a torn claim).
 */
function kindsTaken(seed: number, options: WorldOptions): Set<string> {
  const system = outboxSystem(options, { rules: plan.rules }, steppersFor(plan.rules, null));
  const run = runSeed(system, seed, seedBounds(plan.bounds, options));
  return new Set(run.steps.flatMap((s) => (s.event === null || (s.event.kind === 'answer' && s.tags.includes(FENCED_POST_TAG)) ? [] : [kindOf(s.event).name])));
}

describe('check: pairs exercised', () => {
  const whole = runShard(plan, 1, 61);

  it('are the pairs of the kinds the runs\' recorded steps took', () => {
    expect(whole.exercised).toHaveLength(layout.pairs);
    const fromEvents = pairCoverage(1, 61, fixed, (seed) => swarmOptions(seed, fixed), (seed) => kindsTaken(seed, swarmOptions(seed, fixed)));
    const fromShard = coverageOf(layout, whole.exercised ?? [], 1, 61);
    expect(fromShard).toEqual(fromEvents);
    // Fewer than drawn in 60 seeds (measured: 953 of 1,097), more than none.
    expect(fromShard.covered).toBeGreaterThan(500);
    expect(fromShard.covered).toBeLessThan(pairCoverage(1, 61, fixed, (seed) => swarmOptions(seed, fixed)).covered);
  });

  it('merge from shards to the same table as one shard, in any order', () => {
    const parts = [runShard(plan, 1, 8), runShard(plan, 8, 33), runShard(plan, 33, 61)];
    expect(mergeShards(parts).exercised).toEqual(whole.exercised);
    expect(mergeShards([...parts].reverse()).exercised).toEqual(whole.exercised);
    // A shard without a table (a shard file written before it was kept) leaves the merge without one, not with pairs missing.
    const { exercised: _, ...old } = parts[1];
    expect(mergeShards([parts[0], old, parts[2]]).exercised).toBeUndefined();
  });

  it('leave out a value drawn but never taken', () => {
    // No safety phase: every seed's faults are drawn (crash=on and so on) but none is ever taken.
    const quiet: CheckPlan = { ...plan, world: (o) => ({ ...o, faultStepsMax: 0 }) };
    const r = runShard(quiet, 1, 61);
    const exercised = coverageOf(layout, r.exercised ?? [], 1, 61);
    const drawn = pairCoverage(1, 61, fixed, (seed) => ({ ...swarmOptions(seed, fixed), faultStepsMax: 0 }));
    const kinds = layout.features.filter((f) => f.values.includes('on'));
    const neverTaken = kinds.filter((f) => (r.tags[layout.shows[layout.features.indexOf(f)]?.kinds[0].counter ?? ''] ?? 0) === 0).map((f) => f.name);
    expect(neverTaken).toContain('crash');
    expect(drawn.covered).toBe(drawn.pairs);
    expect(exercised.covered).toBeLessThan(drawn.covered);
    const off = new Set(exercised.missing.flatMap((m) => m.split(' & ')));
    // Every pair with a never-taken kind on is missing: none was exercised.
    const table = r.exercised ?? [];
    layout.features.forEach((fi, i) => {
      layout.features.forEach((fj, j) => {
        if (j <= i) return;
        for (let a = 0; a < fi.values.length; a++) {
          for (let b = 0; b < fj.values.length; b++) {
            const on = (neverTaken.includes(fi.name) && fi.values[a] === 'on') || (neverTaken.includes(fj.name) && fj.values[b] === 'on');
            if (on) expect(table[layout.base[i][j] + a * fj.values.length + b]).toBe(-1);
          }
        }
      });
    });
    expect(off.size).toBeGreaterThan(0);
  });
});

describe('check --json: coverage.exercised', () => {
  mkdirSync('.tmp-test', { recursive: true });
  const tmp = mkdtempSync(join('.tmp-test', 'exercised-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const code = await main(['check', '--rules', 'fail-closed', '--seeds', '40', '--swarm-only', '--out', tmp, ...argv], { out: (l: string) => out.push(l), err: () => {}, tty: false });
    expect(code).toBe(0);
    return out.join('\n');
  };

  it('exists, matches the summary\'s line, and is the same with 2 workers', async () => {
    const report = JSON.parse(await run('--json')) as CheckReport;
    const e = report.coverage?.exercised;
    expect(e).toBeDefined();
    if (e === undefined) return;
    expect(e.pairs).toBe(report.coverage?.pairs);
    expect(e.covered).toBe(coverageOf(layout, runShard(plan, 1, 41).exercised ?? [], 1, 41).covered);
    const text = await run();
    expect(text).toContain(`exercised (a run took a step of each kind the values switch on): ${e.covered.toLocaleString('en-US')}/${e.pairs.toLocaleString('en-US')} pairs;`);
    expect(text).toContain(`${(e.pairs - e.covered).toLocaleString('en-US')} pairs never exercised (the 20 shortest): ${e.missing.join('; ')}`);
    const two = JSON.parse(await run('--json', '--workers', '2')) as CheckReport;
    expect(two.coverage?.exercised).toEqual(e);
    // Shard files carry their tables to `merge`.
    const shards = [1, 2].map((i) => join(tmp, `s${i}.json`));
    for (const [i, path] of shards.entries()) await run('--shard', `${i + 1}/2`, '--shard-out', path, '--quiet');
    const merged: string[] = [];
    expect(await main(['merge', ...shards, '--json', '--out', tmp], { out: (l: string) => merged.push(l), err: () => {}, tty: false })).toBe(0);
    expect((JSON.parse(merged.join('\n')) as CheckReport).coverage?.exercised).toEqual(e);
  });
});
