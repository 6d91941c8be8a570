/**
 * Property tests of `fail-closed` (issue 4): fast-check generates scenarios
 * (world options: sizes, broker mode, fault budgets and weights, plus the
 * seed of the schedule) and every property of the outbox must hold in each.
 * Each property is checked on its own (a run stops at its first violation,
 * so checking one property at a time keeps another from hiding it), over
 * 1,000 scenarios drawn from a fixed fast-check seed named in the title, and
 * each batch must also have fired every fault kind and reached every record
 * status: a batch whose faults never fired would prove nothing.
 *
 * Then the flawed catalog rule sets: `check`'s default budget must keep
 * finding their no-phantom-delivery counterexample (docs/rules.md, 'The catalog').
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle, freshCycleAfterDefinite } from '../model/catalog/index.ts';
import type { RuleSet } from '../model/rules.ts';
import { faultKinds, kindsTagged } from '../sim/check-report.ts';
import { BOUNDS_DEFAULT, runShard, SEEDS_DEFAULT, seedBounds, steppersFor } from '../sim/check.ts';
import type { Property } from '../sim/core/system.ts';
import { runSeed } from '../sim/core/random.ts';
import { outboxSystem } from '../sim/outbox/outbox-system.ts';
import type { WorldOptions } from '../sim/outbox/options.ts';
import { worldOptionsArb } from '../sim/outbox/arbitraries.ts';
import type { World } from '../sim/outbox/world.ts';
import { outboxProperties } from '../sim/outbox/properties.ts';

/** Scenarios per property. */
const SCENARIOS = 1000;
/** fast-check seed of the first property; each next property adds 1, so every batch is different. */
const FC_SEED = 20_260_401;

/** A generated scenario: the options of one world and the seed of its schedule. */
interface Scenario {
  options: WorldOptions;
  scheduleSeed: number;
}

// World options as the check swarm draws them (also exported to users: outbox-sim/fast-check).
const optionsArb = worldOptionsArb;

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  options: optionsArb,
  scheduleSeed: fc.integer({ min: 1, max: 0x7fff_ffff }),
});

const PROPERTIES = outboxProperties();
const SAFETY_AND_LIVENESS = PROPERTIES.filter((p) => p.kind !== 'sometimes');
/** The statuses fail-closed never writes: no QUEUED record (its cycle is READY until it ends), no park for a retry window (it has none). */
const NEVER_WRITTEN = ['reached:QUEUED', 'reached:PARKED:retry-window-exhausted'];
const GOALS = PROPERTIES.filter((p) => p.kind === 'sometimes' && !NEVER_WRITTEN.includes(p.name)).map((p) => p.name);

// Built once: the compiled stepper is derived from the statechart per rule set.
const steppers = steppersFor(failClosed, null);

/** Where a batch of scenarios went: fault tags fired and statuses reached, in runs. */
interface Coverage {
  tags: Map<string, number>;
  reached: Map<string, number>;
}

/** Runs one scenario of fail-closed checking only `property` (and the `sometimes` goals). */
function runScenario(s: Scenario, property: Property<World> | null, coverage: Coverage) {
  const system = outboxSystem(s.options, { rules: failClosed }, steppers);
  const checked = { ...system, properties: system.properties.filter((p) => p.kind === 'sometimes' || p.name === property?.name) };
  const run = runSeed(checked, s.scheduleSeed, seedBounds(BOUNDS_DEFAULT, s.options));
  for (const [t, n] of Object.entries(run.tags)) if (t.startsWith('fault:') || t.startsWith('answer:')) coverage.tags.set(t, (coverage.tags.get(t) ?? 0) + (n > 0 ? 1 : 0));
  for (const r of run.reached) coverage.reached.set(r, (coverage.reached.get(r) ?? 0) + 1);
  return run;
}

/** Every fault kind fired and every record status was reached in some scenario of the batch. */
function expectCovered(coverage: Coverage, label: string): void {
  const neverFired = [...faultKinds(false), ...kindsTagged('operator', false)].filter((k) => (coverage.tags.get(k) ?? 0) === 0);
  expect(neverFired, `${label}: faults that never fired in ${SCENARIOS} scenarios`).toEqual([]);
  const unreached = GOALS.filter((g) => (coverage.reached.get(g) ?? 0) === 0);
  expect(unreached, `${label}: statuses never reached in ${SCENARIOS} scenarios`).toEqual([]);
  expect(NEVER_WRITTEN.filter((g) => (coverage.reached.get(g) ?? 0) > 0), `${label}: statuses fail-closed does not write`).toEqual([]);
}

const emptyCoverage = (): Coverage => ({ tags: new Map(), reached: new Map() });

describe(`fail-closed: every property holds in ${SCENARIOS} generated scenarios each`, () => {
  SAFETY_AND_LIVENESS.forEach((property, i) => {
    const seed = FC_SEED + i;
    it(`${property.name} (${property.kind}) holds in ${SCENARIOS} scenarios (fast-check seed ${seed})`, () => {
      const coverage = emptyCoverage();
      fc.assert(
        fc.property(scenarioArb, (s) => {
          const run = runScenario(s, property, coverage);
          // A liveness bound hit also fails here: the eventually-property was never evaluated.
          expect(run.violation, `${property.name} at schedule seed ${s.scheduleSeed}`).toBeNull();
        }),
        { seed, numRuns: SCENARIOS },
      );
      expectCovered(coverage, property.name);
    });
  });

  const livenessSeed = FC_SEED + SAFETY_AND_LIVENESS.length;
  it(`quiet-after-healing (eventually): every scenario becomes quiet within ${BOUNDS_DEFAULT.healStepsMax} steps once faults stop, ${SCENARIOS} scenarios (fast-check seed ${livenessSeed})`, () => {
    const coverage = emptyCoverage();
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const run = runScenario(s, null, coverage);
        expect(run.end, `schedule seed ${s.scheduleSeed}: ${run.violation?.detail ?? ''}`).toBe('quiet');
      }),
      { seed: livenessSeed, numRuns: SCENARIOS },
    );
    expectCovered(coverage, 'quiet-after-healing');
  });
});

/** `outbox-sim check --rules <rules>` with no other flag. */
function checkDefault(rules: RuleSet) {
  return runShard({ rules, oldRules: null, seedStart: 1, seeds: SEEDS_DEFAULT, broker: null, bounds: BOUNDS_DEFAULT }, 1, 1 + SEEDS_DEFAULT);
}

describe(`check's default budget (seeds 1..${SEEDS_DEFAULT}) keeps finding the catalog's known flaws`, () => {
  it('fresh-cycle-after-definite: its dishonest park (a 409 after a lost reply parked permanent-refusal) is found as honest-park', () => {
    // A run stops at its first violation, and the dishonest park comes before the fresh cycle's phantom.
    const r = checkDefault(freshCycleAfterDefinite);
    const found = r.first['honest-park'];
    expect(found).toBeDefined();
    if (found === undefined) return;
    const replay = runSeed(outboxSystem(found.options, { rules: freshCycleAfterDefinite }, steppersFor(freshCycleAfterDefinite, null)), found.seed, seedBounds(BOUNDS_DEFAULT, found.options));
    expect(replay.violation).toEqual(found.violation);
    expect(replay.final.broker[found.violation.subject]?.body).toBe(found.violation.body);
  });
  for (const rules of [freshCycle]) {
    it(`${rules.name}: no-phantom-delivery is found, and replays from its seed`, () => {
      const r = checkDefault(rules);
      const found = r.first['no-phantom-delivery'];
      expect(found, `check no longer finds the no-phantom-delivery flaw of ${rules.name}`).toBeDefined();
      if (found === undefined) return;
      // The counterexample replays from its seed and options alone (it is what a trace records).
      const replay = runSeed(outboxSystem(found.options, { rules }, steppersFor(rules, null)), found.seed, seedBounds(BOUNDS_DEFAULT, found.options));
      expect(replay.violation).toEqual(found.violation);
      // The known mechanism (docs/rules.md, 'fresh-cycle'): a different body was reported delivered while the broker holds an earlier one.
      const held = replay.final.broker[found.violation.subject]?.body;
      expect(held).toBeDefined();
      expect(held).not.toBe(found.violation.body);
      console.log(`${rules.name}: no-phantom-delivery first at seed ${found.seed} (${r.violatedRuns['no-phantom-delivery']}/${r.runs} runs): ${found.violation.detail}`);
    });
  }

  it('fail-closed: nothing is violated and every run ends quiet', () => {
    const r = checkDefault(failClosed);
    expect(r.violatedRuns).toEqual({});
    expect(r.ends).toEqual({ quiet: SEEDS_DEFAULT });
  });
});
