/**
 * `outbox-sim/fast-check`: arbitraries of the outbox world for property
 * tests (`@fast-check/vitest`'s `test.prop`, or `fc.assert`), and the run of
 * a generated scenario. fast-check is a peer dependency: the arbitraries are
 * built with the copy the test uses.
 *
 *   import { test } from '@fast-check/vitest';
 *   import { runScenario, scenarioArb } from 'outbox-sim/fast-check';
 *   import myRules from './rules/my-rules.ts';
 *
 *   test.prop([scenarioArb()])('my rules keep every safety property', (s) => {
 *     expect(runScenario(myRules, s).violation).toBeNull();
 *   });
 *
 * A failure is shrunk by fast-check (a shorter schedule, earlier events)
 * and reported with the `seed` and `path` that reproduce it.
 */
export { runScenario, scenarioArb, scheduleArb, worldOptionsArb, type Scenario } from '../outbox/arbitraries.ts';
export { enabledEvents, runSchedule, type ScheduleRun } from '../core/schedule.ts';
export type { WorldOptions } from '../outbox/options.ts';
export type { World, WorldEvent } from '../outbox/world.ts';
export type { Violation } from '../core/system.ts';
