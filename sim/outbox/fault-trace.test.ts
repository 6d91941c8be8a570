/**
 * A decision that breaks in the liveness phase's look-ahead (the quiet
 * test, or the cycle search's steady steps) breaks at a state no step of
 * the run or search took: its trace goes on to that state, so that replaying
 * it reaches the broken decision instead of replaying clean.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TIME_ORIGIN } from '../../model/time.ts';
import { afterAll, describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { guardRules, RuleFault } from '../../model/rule-contract.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { steppersFor } from '../check.ts';
import { searchPositionOf } from '../core/explore.ts';
import { simulateEvents } from '../core/simulate.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from './explore-options.ts';
import { exploreOutbox } from './explore-outbox.ts';
import type { WorldOptions } from './options.ts';
import { writeStepsBefore } from './fault-trace.ts';
import { outboxSystem } from './outbox-system.ts';
import { probePositionOf } from './probe-position.ts';
import { attemptedRules } from './test-fault-rules.ts';
import { labelOf, type WorldEvent } from './world.ts';

const dir = mkdtempSync(join(tmpdir(), 'fault-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A rule set whose `selectable` throws once the clock reads 500 or more; before that, `before` answers. */
function lateRules(before: NonNullable<RuleSet['selectable']>): RuleSet {
  return guardRules(
    extendRules(failClosed, {
      name: 'late',
      summary: '',
      selectable: (record, view) => {
        if (view.now - TIME_ORIGIN >= 500) throw new Error(`late clock ${view.now - TIME_ORIGIN}`);
        return before(record, view);
      },
    }),
  );
}

/** A written trace's header and steps (its lines, read plainly: the trace reader lives in traces/). */
function readTrace(path: string): { header: { options: unknown }; steps: { label: string; event: unknown }[] } {
  const [header, ...steps] = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  return { header, steps };
}

const pairOf = (rules: RuleSet) => ({ rules, rulesOrigin: { name: rules.name, source: 'catalog', hash: null }, oldRules: null, oldRulesOrigin: null });

/** One body, no crash, a clock to tick 2 with leases of 1, and `jump`-tick long waits (0: none). */
const sizes = (jump: number): ExploreSizes => ({ ...EXPLORE_DEFAULTS, bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1, ...(jump > 0 ? { jump } : {}) } });

/** Re-runs a written fault trace, then steps `broken`: the fault it meets, or null. */
function faultAfter(path: string, rules: RuleSet, jump: number, broken: WorldEvent): unknown {
  const options = exploreOptions(sizes(jump));
  const system = { ...outboxSystem(options, { rules }, steppersFor(rules, null)), quiescent: undefined };
  const sim = simulateEvents(
    system,
    readTrace(path).steps.map((s) => s.event as WorldEvent | null),
  );
  expect(sim.invalidAt).toBeNull();
  try {
    system.step(sim.steps.at(-1)?.state ?? sim.initial, broken);
  } catch (err) {
    return err;
  }
  return null;
}

describe('a decision broken in the quiet test', () => {
  // Never selectable before tick 500: the world is quiet now, and the test's look 1,000 ticks ahead breaks the decision.
  const rules = lateRules(() => false);
  const walk = ['produce a', 'e1 scan a', 'e1 claiming', 'e1 disposing'];

  /** The fault the quiet test of the healed world meets, in a world of `jump`-tick long waits, and the walk's events. */
  const quietFault = (jump: number): { err: unknown; events: WorldEvent[] } => {
    const system = outboxSystem(exploreOptions(sizes(jump)), { rules }, steppersFor(rules, null));
    let w = system.initial();
    const events: WorldEvent[] = [];
    for (const label of walk) {
      const e = system.choices(w).flatMap((g) => g.events).find((x) => labelOf(x) === label);
      if (e === undefined) throw new Error(`${label} is not enabled`);
      events.push(e);
      w = system.step(w, e).state;
    }
    try {
      system.quiescent?.(system.heal?.(w) ?? w);
    } catch (err) {
      return { err, events };
    }
    throw new Error('the quiet test did not break the decision');
  };

  it('carries the steps the test took: the clock moved on, then the pass up to the step that broke', () => {
    const { err } = quietFault(1000);
    expect(err).toBeInstanceOf(RuleFault);
    const probe = probePositionOf(err);
    expect(probe).toMatchObject({ test: 'quiet', later: 1000 });
    expect(probe?.events.map(labelOf)).toEqual(['e1 scan a', 'e1 claiming']);
  });

  it('writes a trace that goes on through a long wait to the state in which the decision breaks', () => {
    const { err, events } = quietFault(1000);
    const probe = probePositionOf(err);
    const written = writeStepsBefore(dir, pairOf(rules), steppersFor(rules, null), 0, exploreOptions(sizes(1000)), events, 'test', probe);
    expect(written).toMatchObject({ reach: 'decision', lookAhead: true });
    expect(readTrace(written.path).steps.map((s) => s.label)).toEqual([...walk, 'faults stop: liveness phase', 'long wait to tick 1000', 'e1 scan a']);
    const broken = probe?.events.at(-1);
    if (broken === undefined) throw new Error('no broken step');
    expect(faultAfter(written.path, rules, 1000, broken)).toBeInstanceOf(RuleFault);
  });

  it('ends the trace where the test began when no one step moves the clock that far, and says so', () => {
    const { err, events } = quietFault(0);
    const written = writeStepsBefore(dir, pairOf(rules), steppersFor(rules, null), 0, exploreOptions(sizes(0)), events, 'test', probePositionOf(err));
    expect(written).toMatchObject({ reach: 'look-ahead', lookAhead: false });
    expect(readTrace(written.path).steps.map((s) => s.label)).toEqual(walk);
  });
});

describe('a decision broken in the cycle search once faults stop', () => {
  // Selectable as fail-closed says before tick 500: the state is busy, and a long wait in the cycle search reaches the clock that breaks it.
  const rules = lateRules((record, view) => failClosed.selectable?.(record, view) ?? true);
  const options = exploreOptions(sizes(1000));

  it('gives the search position past the state being expanded, and a trace that reaches the broken decision', () => {
    let caught: unknown;
    try {
      exploreOutbox(options, { rules }, steppersFor(rules, null), { statesMax: 100_000, liveness: true, stopAtFirst: true, symmetry: true });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RuleFault);
    const at = searchPositionOf<WorldEvent>(caught);
    const probe = probePositionOf(caught);
    expect(at?.events.map((e) => (e === null ? null : labelOf(e)))).toEqual(['produce a', null, 'long wait to tick 1000']);
    const written = writeStepsBefore(dir, pairOf(rules), steppersFor(rules, null), 0, options, at?.events ?? [], 'test', probe);
    expect(written).toMatchObject({ reach: 'decision', lookAhead: true });
    const broken = probe?.events.at(-1);
    if (broken === undefined) throw new Error('no broken step');
    expect(faultAfter(written.path, rules, 1000, broken)).toBeInstanceOf(RuleFault);
  });

  it("replays the cycle search's steps under the broker's answer they got, and ends where a step breaks the decision", () => {
    // Throws for a record attempted once: the cycle search meets it past a 503, a step no search of the fault phase took first.
    const attempted = attemptedRules();
    const plain = exploreOptions(EXPLORE_DEFAULTS);
    let caught: unknown;
    try {
      exploreOutbox(plain, { rules: attempted }, steppersFor(attempted, null), { statesMax: 100_000, liveness: true, stopAtFirst: true, symmetry: true });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RuleFault);
    const at = searchPositionOf<WorldEvent>(caught);
    const answers = (at?.events ?? []).flatMap((e) => (e !== null && e.kind === 'answer' ? [e.answer] : []));
    expect(answers).toHaveLength(1);
    const written = writeStepsBefore(dir, pairOf(attempted), steppersFor(attempted, null), 0, plain, at?.events ?? [], 'test', probePositionOf(caught));
    expect(written).toMatchObject({ reach: 'decision', steps: at?.events.length });
    const trace = readTrace(written.path);
    const options = trace.header.options as WorldOptions;
    expect(options.healAnswer).toBe(answers[0]);
    // The trace ends at a state one of whose steps breaks the decision.
    const system = { ...outboxSystem(options, { rules: attempted }, steppersFor(attempted, null)), quiescent: undefined };
    const sim = simulateEvents(system, trace.steps.map((s) => s.event as WorldEvent | null));
    const end = sim.steps.at(-1)?.state ?? sim.initial;
    const broke = system.choices(end).flatMap((g) => g.events).some((e) => {
      try {
        system.step(end, e);
        return false;
      } catch (err) {
        return err instanceof RuleFault;
      }
    });
    expect(broke).toBe(true);
  });
});
