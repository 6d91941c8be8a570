/**
 * The lifecycle statechart decides nothing on its own: no shipped rule set
 * (fail-closed or another) is its default. Stepped without a rule set, a
 * transition that needs a decision throws; provided one, it decides by it.
 */
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { freshCycle } from './catalog/index.ts';
import { engineMachine, lifecycleMachine, UNPROVIDED } from './lifecycle.ts';
import { foundRead, freshRecord } from './record.ts';
import type { EngineEvent } from './lifecycle.ts';

const input = { pid: 1, attemptsMax: 3 };
// A new body for an id whose record is PARKED: fail-closed quarantines it, fresh-cycle writes a fresh cycle.
const scan: EngineEvent = {
  type: 'SCAN',
  file: { id: 'a', body: 'B', generation: 2 },
  read: foundRead({ ...freshRecord('A', 0), status: 'PARKED', reason: 'permanent-refusal' }),
  claim: { kind: 'free' },
};

function scanWith(machine: typeof lifecycleMachine) {
  const [idle] = initialTransition(machine, input);
  return transition(machine, idle, scan)[0];
}

describe('the lifecycle statechart has no rule set by default', () => {
  it('every decision of the default implementations throws, naming the decision', () => {
    expect(() => UNPROVIDED.classify('ok')).toThrow(/"classify" of no rule set/);
    expect(() => UNPROVIDED.admit({ id: 'a', body: 'A', read: { kind: 'absent' }, claim: { kind: 'free' }, who: { pid: 1, rules: 'x', schema: 1 }, now: 0 })).toThrow(/"admit" of no rule set/);
  });

  it('stepping the unprovided machine through a decision throws instead of deciding as fail-closed', () => {
    expect(() => scanWith(lifecycleMachine)).toThrow(/"admit" of no rule set/);
  });

  it('a provided rule set decides: fresh-cycle writes a fresh cycle for the parked id', () => {
    const after = scanWith(engineMachine(freshCycle));
    expect(after.value).toBe('claiming');
    expect(after.context.effect?.kind).toBe('write-record');
  });
});
