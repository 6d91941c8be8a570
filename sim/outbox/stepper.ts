/**
 * Steps one engine's statechart. The reference stepper interprets the XState
 * machine with its pure `transition()`; the durable effects are the params of
 * the `persist` actions it returns. An engine's memory is stored as plain data
 * (`state`, `ctx`) and the snapshot is rebuilt with `resolveState`.
 */
import { transition } from 'xstate';
import { engineMachine, type EngineContext, type EngineEvent, type LifecycleState } from '../../model/lifecycle.ts';
import type { RuleSet } from '../../model/rules.ts';
import { ruleFaultOf } from '../../model/rule-fault.ts';
import type { Effect } from '../../model/types.ts';
import type { EngineProc } from './world.ts';

/** An engine's statechart position and memory, as plain data. */
export interface EngineMemory {
  state: LifecycleState;
  ctx: EngineContext;
}

/** What one engine step produced. */
export interface EngineStep extends EngineMemory {
  effects: Effect[];
}

/** Steps an engine of one rule set. */
export type Stepper = (memory: EngineMemory, event: EngineEvent) => EngineStep;

/** Initial memory of a new engine process. */
export function initialMemory(pid: number, attemptsMax: number): EngineMemory {
  return {
    state: 'idle',
    ctx: { pid, attemptsMax, id: null, file: null, envelope: null, outcome: null, pending: null, effect: null },
  };
}

/**
 * A new engine process in its initial memory, its fields written out in the
 * order every later copy of it is built (`withMemory`): spread from its
 * memory it had another hidden class, and the engine reads of every step
 * turned polymorphic.
 */
export function newEngineProc(pid: number, version: EngineProc['version'], attemptsMax: number): EngineProc {
  const memory = initialMemory(pid, attemptsMax);
  return { pid, version, state: memory.state, ctx: memory.ctx };
}

/** The reference stepper: XState's own `transition()` on the rule set's machine. */
export function xstateStepper(rules: RuleSet): Stepper {
  const machine = engineMachine(rules);
  return (memory, event) => {
    const snapshot = machine.resolveState({ value: memory.state, context: memory.ctx });
    let step;
    try {
      step = transition(machine, snapshot, event);
    } catch (err) {
      // A guarded decision's fault, which XState rewraps when a guard throws it, leaves as itself.
      throw ruleFaultOf(err) ?? err;
    }
    const [next, actions] = step;
    const effects: Effect[] = [];
    for (const a of actions) if (a.type === 'persist' && a.params) effects.push(a.params as Effect);
    return { state: next.value as LifecycleState, ctx: { ...next.context, effect: null }, effects };
  };
}
