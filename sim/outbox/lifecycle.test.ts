/**
 * Every state and transition of the lifecycle statechart, reached by paths
 * that XState's graph tools derive from the machine itself
 * (`lifecycle-paths.ts`: `getShortestPaths` over a finite set of
 * observations): nothing here lists a transition by hand. Each path is
 * replayed through the simulator's two steppers (XState's `transition()` and
 * the compiled fast path), which must end where the graph says, agree with
 * each other, and emit exactly the durable writes of the transitions taken.
 *
 * Coverage is checked against the machine's own definition, so adding a
 * transition that no path takes fails this file: the last tests show it on
 * machines built with an unreachable transition and an unreachable state.
 */
import { describe, expect, it } from 'vitest';
import { StateMachine, type AnyStateMachine } from 'xstate';
import { CATALOG } from '../../model/catalog/index.ts';
import { failClosed } from '../../model/catalog/index.ts';
import { engineMachine, lifecycleMachine, type LifecycleState } from '../../model/lifecycle.ts';
import { lifecyclePaths, machineShape, PATHS_INPUT, uncovered, type LifecyclePaths, type TransitionId } from '../../model/lifecycle-paths.ts';
import type { RuleSet } from '../../model/rules.ts';
import type { Effect } from '../../model/types.ts';
import { compiledStepper } from './compiled-stepper.ts';
import { initialMemory, xstateStepper, type EngineMemory } from './stepper.ts';

/**
 * The rule sets whose machines the paths are searched in: the catalog, and
 * three decisions the rule-set API allows that no catalog rule set makes
 * (leave a file live for a later pass; no pre-send write; park in the
 * pre-send write at once, instead of sending).
 */
const RULE_SETS: readonly RuleSet[] = [
  ...CATALOG,
  { ...failClosed, name: 'leaves-files-live', admit: () => ({ kind: 'leave' }) },
  { ...failClosed, name: 'no-pre-send-write', preSend: () => null },
  { ...failClosed, name: 'parks-before-send', preSend: (record) => ({ ...record, status: 'PARKED', reason: 'outcome-unknown' }) },
];

const FOUND = new Map<string, LifecyclePaths>(RULE_SETS.map((r) => [r.name, lifecyclePaths(engineMachine(r))]));

/** The durable write each writing action of the statechart computes (the `persist` action after it emits it). */
const EFFECT_OF: Readonly<Record<string, Effect['kind']>> = {
  writeAdmitted: 'write-record',
  quarantineRefused: 'quarantine',
  takeClaim: 'take-claim',
  writePreSend: 'write-record',
  recordReply: 'post',
  writeCompletion: 'write-record',
  releaseClaim: 'release-claim',
  archiveFile: 'archive',
  quarantineFile: 'quarantine',
};

/** The transition definition of an id (`state:EVENT:i` or `state:always:i`). */
function definition(id: TransitionId) {
  const [state, event, i] = id.split(':');
  const node = lifecycleMachine.root.states[state];
  const defs = event === 'always' ? node.always : node.transitions.get(event);
  const def = defs?.[Number(i)];
  if (def === undefined) throw new Error(`no transition ${id}`);
  return def;
}

/** The writes the transitions taken emit, in order: one per `persist` action, of the kind the action before it computes. */
function writesOf(taken: readonly TransitionId[]): string[] {
  const kinds: string[] = [];
  for (const id of taken) {
    const names = definition(id).actions.map((a) => (typeof a === 'string' ? a : ((a as { type?: string }).type ?? '')));
    names.forEach((name, i) => {
      if (name !== 'persist') return;
      const kind = EFFECT_OF[names[i - 1]];
      if (kind === undefined) throw new Error(`${id}: the action before persist, ${names[i - 1]}, has no known durable write`);
      kinds.push(kind);
    });
  }
  return kinds;
}

describe('the graph paths cover the statechart', () => {
  it('every state and every transition of the machine is reached by a path under some rule set', () => {
    expect(uncovered(lifecycleMachine, [...FOUND.values()])).toEqual({ states: [], transitions: [] });
  });
  it('the machine has the states the lifecycle names, and the paths reach each of them under every catalog rule set', () => {
    const shape = machineShape(lifecycleMachine);
    expect(shape.transitions.length).toBeGreaterThan(20);
    for (const r of CATALOG) expect([...(FOUND.get(r.name)?.states.keys() ?? [])].sort()).toEqual([...shape.states].sort());
  });
});

describe.each(RULE_SETS.map((r) => [r.name, r] as const))('paths under %s', (name, rules) => {
  const found = FOUND.get(name);
  const cases = [...(found?.transitions ?? [])].map(([t, path]) => [`${t} (${path.length} step${path.length === 1 ? '' : 's'})`, path] as const);
  const steppers = { xstate: xstateStepper(rules), compiled: compiledStepper(rules) };
  it.each(cases)('%s: both steppers follow the path, with its writes', (_, path) => {
    let xs: EngineMemory = initialMemory(PATHS_INPUT.pid, PATHS_INPUT.attemptsMax);
    let fast: EngineMemory = xs;
    for (const step of path) {
      const a = steppers.xstate(xs, step.event);
      const b = steppers.compiled(fast, step.event);
      expect(a.state).toBe(step.state as LifecycleState);
      expect(b).toEqual(a);
      expect(a.effects.map((e) => e.kind)).toEqual(writesOf(step.taken));
      xs = a;
      fast = b;
    }
  });
});

/** The lifecycle's own definition with `change` applied to its states, and fail-closed's implementations (the bare machine's defaults throw). */
function alteredMachine(change: (states: Record<string, unknown>) => Record<string, unknown>): AnyStateMachine {
  const config = lifecycleMachine.config as unknown as { states: Record<string, unknown> };
  return new StateMachine({ ...config, states: change(config.states) } as never, engineMachine(failClosed).implementations as never) as unknown as AnyStateMachine;
}

describe('the coverage check fails on a transition or state no path reaches', () => {
  it('a transition shadowed by the unguarded one before it is reported uncovered', () => {
    const machine = alteredMachine((states) => {
      const disposing = states.disposing as { on: { STEP: unknown[] } };
      return { ...states, disposing: { ...disposing, on: { STEP: [...disposing.on.STEP, { target: 'claiming' }] } } };
    });
    expect(machineShape(machine).transitions).toContain('disposing:STEP:3');
    expect(uncovered(machine, [lifecyclePaths(machine)]).transitions).toContain('disposing:STEP:3');
  });
  it('a state that no transition enters, and its transitions, are reported uncovered', () => {
    const machine = alteredMachine((states) => ({ ...states, limbo: { on: { STEP: { target: 'idle' } } } }));
    expect(uncovered(machine, [lifecyclePaths(machine)])).toMatchObject({ states: ['limbo'], transitions: expect.arrayContaining(['limbo:STEP:0']) as unknown });
  });
  it('a guard that never holds for the observations leaves its transition uncovered', () => {
    const machine = alteredMachine((states) => {
      const posting = states.posting as { on: { POST: unknown[] } };
      return { ...states, posting: { ...posting, on: { POST: [{ guard: 'completionDone', target: 'idle' }, ...posting.on.POST] } } };
    });
    expect(uncovered(machine, [lifecyclePaths(machine)]).transitions).toContain('posting:POST:0');
    expect(uncovered(engineMachine(failClosed), [lifecyclePaths(engineMachine(failClosed))]).transitions).not.toContain('posting:POST:0');
  });
});
