/**
 * A step's notes in words: the broker's own reply when the answer's name
 * does not say it, and an engine's rules named only in a world of two.
 */
import { describe, expect, it } from 'vitest';
import type { EngineProc } from '../../sim/outbox/world.ts';
import { changeNotes, shownLabel } from './summary.ts';
import type { TraceStep } from '../../sim/trace-format.ts';
import type { TraceState } from './states.ts';

const engine = (pid: number, version: 'new' | 'old'): EngineProc => ({ pid, version, state: 'idle', ctx: {} }) as unknown as EngineProc;
const state = (engines: EngineProc[]): TraceState => ({ engines }) as unknown as TraceState;

describe('changeNotes', () => {
  it("says the broker's own reply a step's tags record", () => {
    const s = state([engine(1, 'new')]);
    expect(changeNotes(s, s, {}, { tags: ['answer:accept', 'reply:conflict-409'] }).map((n) => n.text)).toEqual(['the broker replies conflict-409']);
    expect(changeNotes(s, s, {}, { tags: ['answer:accept'] })).toEqual([]);
    expect(changeNotes(s, s, {}, { tags: ['answer:accept', 'broker:dropped'] }).map((n) => n.text)).toEqual(['the broker drops it: it holds this id, or this key, already']);
  });
  it('says a POST fenced out was not sent (its label names the answer the world chose)', () => {
    const step = { n: 1, label: 'e1 POST -> accept', tags: ['fenced:post'] } as unknown as TraceStep;
    expect(shownLabel(step)).toBe('e1 POST -> accept (not sent: fenced out)');
    expect(shownLabel({ ...step, tags: ['answer:accept'] })).toBe('e1 POST -> accept');
    const s = state([engine(1, 'new')]);
    expect(changeNotes(s, s, {}, { tags: ['fenced:post'] }).map((n) => n.text)).toEqual(['POST not sent: the claim is gone and the rules fence the POST (no answer came)']);
  });
  it('says why the broker dropped a POST, by its dedupe mode', () => {
    const s = state([engine(1, 'new')]);
    const dropped = (broker: string) => changeNotes(s, s, {}, { tags: ['answer:accept', 'broker:dropped'], broker }).map((n) => n.text);
    expect(dropped('id-ok')).toEqual(['the broker drops it: it already holds this id (it dedupes by id), and keeps what it held']);
    expect(dropped('id-409')).toEqual(['the broker drops it: it already holds this id (it dedupes by id), and keeps what it held']);
    expect(dropped('key')).toEqual(['the broker drops it: it already holds this key (it dedupes by key), and keeps what it held']);
  });
  it('names the rules an engine started with only in a world of old and new rules', () => {
    const before = state([engine(1, 'old')]);
    const after = state([engine(1, 'old'), engine(3, 'new')]);
    const change = { engines: { set: { 1: after.engines } } };
    expect(changeNotes(before, after, change, { skewed: true }).map((n) => n.text)).toEqual(['e3 started (new rules)']);
    expect(changeNotes(before, after, change, { skewed: false }).map((n) => n.text)).toEqual(['e3 started']);
  });
  it('says what a rewrite took from a record: fields a legacy rewrite dropped, a payload a tombstone dropped', () => {
    const rec = (record: Record<string, unknown>) => ({ kind: 'record', record: { status: 'READY', payload: 'A', attempts: 0, resendEpoch: 0, schema: 1, ...record } });
    const at = (record: Record<string, unknown>) => ({ engines: [], records: { a: rec(record) } }) as unknown as TraceState;
    const before = at({ inFlight: true, unknownSeen: true });
    const legacy = at({});
    const change = { records: { set: { a: rec({}) } } };
    expect(changeNotes(before, legacy, change).map((n) => n.text)).toEqual(['record a: READY A, attempts 0, epoch 0; inFlight, unknownSeen removed']);
    const tomb = at({ status: 'DELIVERED', payload: undefined, inFlight: true, unknownSeen: true });
    expect(changeNotes(at({ status: 'DELIVERED', inFlight: true, unknownSeen: true }), tomb, change)[0].text).toContain('its payload dropped (a tombstone)');
  });
  it("words the world's own bookkeeping, not its field names", () => {
    const s = (o: Record<string, unknown>) => ({ engines: [], ...o }) as unknown as TraceState;
    const texts = (b: Record<string, unknown>, a: Record<string, unknown>, field: string) => changeNotes(s(b), s(a), { [field]: a[field] }).map((n) => n.text);
    expect(texts({ parkedGone: [] }, { parkedGone: ['a:A'] }, 'parkedGone')).toEqual(['a parked body replaced other than by a requeue (a:A): it stays parked for parked-stays-parked']);
    expect(texts({ inTransit: [] }, { inTransit: [{}, {}] }, 'inTransit')).toEqual(['POSTs in transit: 2']);
    expect(texts({ sweeps: 0 }, { sweeps: 1 }, 'sweeps')).toEqual(['retention sweeps so far: 1']);
    expect(texts({}, { somethingNew: 1 }, 'somethingNew')).toEqual(['somethingNew changed']);
  });
});
