/**
 * fast-check generates the schedule itself (issue 22 item 3): a scenario is
 * world options and a list of choice indices (sim/outbox/arbitraries.ts), so
 * fast-check's shrinker works on the schedule, and a failure names the
 * `seed` and `path` that reproduce its shrunk counterexample. fail-closed
 * keeps every safety property on generated schedules; a mutant does not,
 * and fast-check shrinks its failing schedule to a few steps that replay
 * from the printed seed and path. `test.prop` (@fast-check/vitest) takes the
 * same arbitraries, as a user's test would.
 */
import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { failClosed } from '../model/catalog/index.ts';
import corruptAsAbsent from './mutants/corrupt-as-absent.ts';
import { runScenario, scenarioArb, worldOptionsArb, type Scenario } from '../sim/outbox/arbitraries.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../sim/outbox/explore-options.ts';

/** fast-check seed of this file's properties. */
const FC_SEED = 20_261_201;

/** fast-check seed of the mutant's search (its first failure there is a phantom delivery). */
const MUTANT_SEED = 2;

/** The default explore world, with one corruption allowed: small enough that a schedule of 40 choices covers it. */
const SMALL_WORLD = exploreOptions({ ...EXPLORE_DEFAULTS, corruptionsMax: 1 });

/**
 * The mutant's world: the small world without field-corrupt, whose events (one per declared field
 * and damage) would crowd the choice menu this mutant's flaw (a torn record read as absent) is
 * found in; with them the seed's 2,000 schedules no longer reach a phantom delivery.
 */
const MUTANT_WORLD = { ...SMALL_WORLD, weights: { ...SMALL_WORLD.weights, 'field-corrupt': 0 } };

describe('generated schedules', () => {
  it('fail-closed keeps every safety property on 300 generated scenarios (fast-check seed 20261201)', () => {
    fc.assert(
      fc.property(scenarioArb(worldOptionsArb, 80), (s) => {
        expect(runScenario(failClosed, s).violation).toBeNull();
      }),
      { seed: FC_SEED, numRuns: 300 },
    );
  });

  it('a mutant fails (fast-check seed 2), and fast-check shrinks its schedule to a counterexample that replays from the printed seed and path', () => {
    const property = fc.property(scenarioArb(MUTANT_WORLD, 40), (s: Scenario) => runScenario(corruptAsAbsent, s).violation === null);
    const found = fc.check(property, { seed: MUTANT_SEED, numRuns: 2000 });
    expect(found.failed).toBe(true);
    if (!found.failed || found.counterexample === null) return;
    const [shrunk] = found.counterexample;
    const run = runScenario(corruptAsAbsent, shrunk);
    expect(run.violation?.property).toBe('no-phantom-delivery');
    // Shrunk: the run ends in its violation at the schedule's last step, and without any one step it no longer violates.
    expect(run.events.length).toBe(shrunk.schedule.length);
    expect(shrunk.schedule.length).toBeLessThanOrEqual(12);
    for (let i = 0; i < shrunk.schedule.length; i++) {
      const fewer = { ...shrunk, schedule: shrunk.schedule.filter((_, j) => j !== i) };
      expect(runScenario(corruptAsAbsent, fewer).violation, `step ${i + 1} dropped`).toBeNull();
    }
    // The report a failing fc.assert prints names the seed and path; they replay the shrunk counterexample alone.
    const report = fc.defaultReportMessage(found) ?? '';
    expect(report).toContain(`seed: ${found.seed}, path: "${found.counterexamplePath}"`);
    const replayed = fc.check(property, { seed: found.seed, path: found.counterexamplePath ?? '', endOnFailure: true });
    expect(replayed.failed && replayed.counterexample?.[0]).toEqual(shrunk);
    console.log(`corrupt-as-absent: ${run.violation?.property} (${run.violation?.detail}); schedule ${JSON.stringify(shrunk.schedule)} shrunk to ${shrunk.schedule.length} steps after ${found.numRuns} runs and ${found.numShrinks} shrinks:\n  ${run.labels.join('\n  ')}`);
  });
});

describe('test.prop with the exported arbitraries', () => {
  test.prop([scenarioArb(SMALL_WORLD, 40)], { seed: FC_SEED, numRuns: 100 })('fail-closed: no violation on a generated schedule of the small world', (s) => {
    expect(runScenario(failClosed, s).violation).toBeNull();
  });
});
