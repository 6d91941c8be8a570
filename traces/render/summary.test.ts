/**
 * A step's notes in words: the broker's own reply when the answer's name
 * does not say it, and an engine's rules named only in a world of two.
 */
import { describe, expect, it } from 'vitest';
import type { EngineProc } from '../../sim/outbox/world.ts';
import { changeNotes } from './summary.ts';
import type { TraceState } from './states.ts';

const engine = (pid: number, version: 'new' | 'old'): EngineProc => ({ pid, version, state: 'idle', ctx: {} }) as unknown as EngineProc;
const state = (engines: EngineProc[]): TraceState => ({ engines }) as unknown as TraceState;

describe('changeNotes', () => {
  it("says the broker's own reply a step's tags record", () => {
    const s = state([engine(1, 'new')]);
    expect(changeNotes(s, s, {}, ['answer:accept', 'reply:conflict-409']).map((n) => n.text)).toEqual(['the broker replies conflict-409']);
    expect(changeNotes(s, s, {}, ['answer:accept'])).toEqual([]);
    expect(changeNotes(s, s, {}, ['answer:accept', 'broker:dropped']).map((n) => n.text)).toEqual(['the broker drops it: it holds this id, or this key, already']);
  });
  it('names the rules an engine started with only in a world of old and new rules', () => {
    const before = state([engine(1, 'old')]);
    const after = state([engine(1, 'old'), engine(3, 'new')]);
    const change = { engines: { set: { 1: after.engines } } };
    expect(changeNotes(before, after, change, [], true).map((n) => n.text)).toEqual(['e3 started (new rules)']);
    expect(changeNotes(before, after, change, [], false).map((n) => n.text)).toEqual(['e3 started']);
  });
});
