import { describe, expect, it } from 'vitest';
import { dispatchAtomically, dispatchStep, EMPTY_DISPATCHER, endAttempt, enterCall, canStep, SOUND_DISPATCHER, type Dispatcher, type DispatchCall, type DispatchResult } from './dispatcher.ts';
import { newExecutor, sdkStart, totalStarts, type ExecutorState } from './executor.ts';
import type { Command } from './kernel.ts';

const k1: Command = { key: 'k1', task: 't1', round: 1, rev: 1 };
const k2: Command = { key: 'k2', task: 't1', round: 2, rev: 1 };

function firstExecution(): { d: Dispatcher; ex: ExecutorState } {
  const r = dispatchAtomically(EMPTY_DISPATCHER, newExecutor(false), 1, k1);
  expect(r.result).toEqual({ kind: 'started', attempt: 'a1', coalesced: false });
  return { d: r.dispatcher, ex: r.executor };
}

describe('dispatcher', () => {
  it('proposes, claims and starts an attempt for a new key, and records a running session', () => {
    const { d, ex } = firstExecution();
    expect(d.store.attempts).toEqual([{ id: 'a1', key: 'k1', task: 't1', round: 1, status: 'started', occupied: true }]);
    expect(d.store.sessions).toEqual([{ id: 'a1', key: 'k1', task: 't1', round: 1, status: 'running' }]);
    expect(d.store.leases).toEqual([{ task: 't1', round: 1, attempt: 'a1' }]);
    expect(d.locks).toEqual({});
    expect(ex.startsByKey).toEqual({ k1: 1 });
  });

  it('refuses while the durable session record says running', () => {
    const { d, ex } = firstExecution();
    const r = dispatchAtomically(d, ex, 2, k1);
    expect(r.result).toEqual({ kind: 'refused', reason: 'session-running', attempt: null });
    expect(totalStarts(r.executor)).toBe(1);
  });

  it('refuses a held lease for the task and round even without a running session', () => {
    const { d, ex } = firstExecution();
    const noSession = { ...d, store: { ...d.store, sessions: [] } };
    expect(dispatchAtomically(noSession, ex, 2, k1).result).toMatchObject({ kind: 'refused', reason: 'lease-held' });
  });

  it('after success, the same key finds the terminal attempt and is refused', () => {
    const { d, ex } = firstExecution();
    const done = { ...d, store: endAttempt(d.store, 'a1', 'succeeded') };
    expect(done.store.sessions[0].status).toBe('completed');
    expect(dispatchAtomically(done, ex, 2, k1).result).toEqual({ kind: 'refused', reason: 'terminal-attempt', attempt: 'a1' });
  });

  it('after a cancel, the same key keeps finding the cancelled attempt; a new key creates a new attempt', () => {
    const { d, ex } = firstExecution();
    const cancelled = { ...d, store: endAttempt(d.store, 'a1', 'cancelled') };
    expect(cancelled.store.leases).toEqual([]);
    const same = dispatchAtomically(cancelled, ex, 2, k1);
    expect(same.result).toEqual({ kind: 'refused', reason: 'terminal-attempt', attempt: 'a1' });
    const fresh = dispatchAtomically(cancelled, ex, 2, k2);
    expect(fresh.result).toEqual({ kind: 'started', attempt: 'a2', coalesced: false });
    expect(fresh.attemptsCreated).toBe(1);
    expect(fresh.executor.startsByKey).toEqual({ k1: 1, k2: 1 });
  });

  it('serializes per task: a second caller waits at check while the first holds the lock', () => {
    let d = EMPTY_DISPATCHER;
    const ex = newExecutor(false);
    const a = dispatchStep(d, ex, 1, enterCall(k1), SOUND_DISPATCHER);
    d = a.dispatcher;
    expect(d.locks).toEqual({ t1: 1 });
    expect(canStep(d, 2, enterCall(k1), SOUND_DISPATCHER)).toBe(false);
    expect(canStep(d, 2, enterCall(k1), { ...SOUND_DISPATCHER, serializePerTask: false })).toBe(true);
  });

  it('without serialization, an atomic claim still lets only one of two interleaved callers start', () => {
    const rules = { ...SOUND_DISPATCHER, serializePerTask: false };
    let d = EMPTY_DISPATCHER;
    let ex = newExecutor(false);
    // Both callers take each phase in turn: check, check, offer, offer, claim, claim, ...
    const calls: (DispatchCall | null)[] = [enterCall(k1), enterCall(k1)];
    const results: DispatchResult[] = [];
    for (let round = 0; round < 4; round++) {
      calls.forEach((call, i) => {
        if (call === null) return;
        const out = dispatchStep(d, ex, i + 1, call, rules);
        d = out.dispatcher;
        ex = out.executor;
        calls[i] = out.call;
        if (out.result !== null) results.push(out.result);
      });
    }
    expect(results).toContainEqual({ kind: 'refused', reason: 'occupied', attempt: 'a1' });
    expect(totalStarts(ex)).toBe(1);
  });

  it('without terminal refusal, a cancelled attempt is claimed and started again (the broken variant)', () => {
    const { d, ex } = firstExecution();
    const cancelled = { ...d, store: endAttempt(d.store, 'a1', 'cancelled') };
    const r = dispatchAtomically(cancelled, ex, 2, k1, { ...SOUND_DISPATCHER, refuseTerminal: false });
    expect(r.result.kind).toBe('started');
    expect(r.executor.startsByKey.k1).toBe(2);
  });
});

describe('in-memory SDK', () => {
  it('counts every start; without dedupe every start is an effect', () => {
    const a = sdkStart(newExecutor(false), 'k1', null);
    const b = sdkStart(a.executor, 'k1', null);
    expect(b).toMatchObject({ coalesced: false, executor: { startsByKey: { k1: 2 }, effects: 2 } });
  });

  it('with dedupe by key, a second start is coalesced into the first effect', () => {
    const a = sdkStart(newExecutor(true), 'k1', null);
    const b = sdkStart(a.executor, 'k1', null);
    expect(b).toMatchObject({ coalesced: true, executor: { startsByKey: { k1: 2 }, effects: 1 } });
    expect(sdkStart(b.executor, 'k2', null).executor.effects).toBe(2);
  });
});
