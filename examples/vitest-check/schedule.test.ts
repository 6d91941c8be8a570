import { test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { runScenario, scenarioArb } from 'outbox-sim/fast-check';
import ourRules from './rules/our-rules.ts';

// fast-check generates the world and the schedule (a choice index per step); a failure is
// shrunk to the fewest steps and printed with the seed and path that reproduce it.
test.prop([scenarioArb()], { numRuns: 200 })('our rules keep every safety property on generated schedules', (s) => {
  expect(runScenario(ourRules, s).violation).toBeNull();
});
