/**
 * Every transition of the lifecycle statechart, under each catalog rule set,
 * stepped with XState's own `transition()`. A final test asserts that the
 * table below covers every transition the machine has, so a transition added
 * without a test fails the suite.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../model/catalog/index.ts';
import { lifecycleMachine, type EngineContext, type EngineEvent, type LifecycleState } from '../../model/lifecycle.ts';
import { freshRecord } from '../../model/record.ts';
import type { ClaimView, OutboxRecord, RecordRead, ResultFile } from '../../model/types.ts';
import { initialMemory, xstateStepper } from './stepper.ts';

const fileA: ResultFile = { id: 'a', body: 'A', generation: 1 };
const recA = freshRecord('A', 0);
const found = (record: OutboxRecord): RecordRead => ({ kind: 'found', record, legacy: false });
const mine: ClaimView = { kind: 'held', mine: true, ownerAlive: true };
const other: ClaimView = { kind: 'held', mine: false, ownerAlive: true };
const dead: ClaimView = { kind: 'held', mine: false, ownerAlive: false };
const envelopeA = { id: 'a', body: 'A', key: 'a#0' };

function ctx(over: Partial<EngineContext> = {}): EngineContext {
  return { ...initialMemory(7, 3).ctx, ...over };
}
const working = (over: Partial<EngineContext> = {}) => ctx({ id: 'a', file: fileA, ...over });
const step = (read: RecordRead, claim: ClaimView, live: ResultFile | null = fileA): EngineEvent => ({ type: 'STEP', read, claim, live });

type RuleName = (typeof CATALOG)[number]['name'];
interface Case {
  name: string;
  from: LifecycleState;
  /** Index of the transition among the state's candidates for this event type (`always` for eventless). */
  transition: [string, number];
  ctx: EngineContext;
  event: EngineEvent;
  to: LifecycleState;
  /** Effect kinds emitted, per rule set when they differ. */
  effects: string[] | Partial<Record<RuleName, string[]>> & { default: string[] };
  /** Expected target per rule set when it differs. */
  toBy?: Partial<Record<RuleName, LifecycleState>>;
  /** Transition index per rule set when it differs. */
  transitionBy?: Partial<Record<RuleName, [string, number]>>;
}

const parkedA: OutboxRecord = { ...recA, status: 'PARKED', reason: 'permanent-refusal' };
const deliveredA: OutboxRecord = { ...recA, status: 'DELIVERED' };

const CASES: Case[] = [
  { name: 'publish an absent id: write a new record', from: 'idle', transition: ['SCAN', 0], ctx: ctx(), event: { type: 'SCAN', file: fileA, read: { kind: 'absent' } }, to: 'claiming', effects: ['write-record'] },
  { name: 'publish the body already READY: keep it', from: 'idle', transition: ['SCAN', 1], ctx: ctx(), event: { type: 'SCAN', file: fileA, read: found(recA) }, to: 'claiming', effects: [] },
  { name: 'publish over a corrupt record: quarantine', from: 'idle', transition: ['SCAN', 2], ctx: ctx(), event: { type: 'SCAN', file: fileA, read: { kind: 'corrupt' } }, to: 'idle', effects: ['quarantine'] },
  {
    name: 'publish a new body for a parked id: quarantine, or a fresh cycle',
    from: 'idle',
    transition: ['SCAN', 2],
    transitionBy: { 'fresh-cycle': ['SCAN', 0], 'fresh-cycle-after-definite': ['SCAN', 0] },
    ctx: ctx(),
    event: { type: 'SCAN', file: { id: 'a', body: 'B', generation: 2 }, read: found(parkedA) },
    to: 'idle',
    toBy: { 'fresh-cycle': 'claiming', 'fresh-cycle-after-definite': 'claiming' },
    effects: { default: ['quarantine'], 'fresh-cycle': ['write-record'], 'fresh-cycle-after-definite': ['write-record'] },
  },
  { name: 'drain a READY record with no file', from: 'idle', transition: ['DRAIN', 0], ctx: ctx(), event: { type: 'DRAIN', id: 'a', read: found(recA) }, to: 'claiming', effects: [] },
  { name: 'claim: record no longer READY', from: 'claiming', transition: ['STEP', 0], ctx: working(), event: step(found(deliveredA), { kind: 'free' }), to: 'disposing', effects: [] },
  { name: 'claim a free claim', from: 'claiming', transition: ['STEP', 1], ctx: working(), event: step(found(recA), { kind: 'free' }), to: 'preSend', effects: ['take-claim'] },
  { name: 'reclaim a dead owner\'s claim', from: 'claiming', transition: ['STEP', 1], ctx: working(), event: step(found(recA), dead), to: 'preSend', effects: ['take-claim'] },
  { name: 'a torn claim is never stolen', from: 'claiming', transition: ['STEP', 2], ctx: working(), event: step(found(recA), { kind: 'torn' }), to: 'disposing', effects: [] },
  { name: 'a live owner keeps its claim', from: 'claiming', transition: ['STEP', 2], ctx: working(), event: step(found(recA), other), to: 'disposing', effects: [] },
  { name: 'pre-send: claim lost', from: 'preSend', transition: ['STEP', 0], ctx: working(), event: step(found(recA), { kind: 'torn' }), to: 'disposing', effects: [] },
  { name: 'pre-send: record no longer READY', from: 'preSend', transition: ['STEP', 1], ctx: working(), event: step(found(parkedA), mine), to: 'releasing', effects: [] },
  { name: 'pre-send write, then the envelope', from: 'preSend', transition: ['STEP', 2], ctx: working(), event: step(found(recA), mine), to: 'posting', effects: ['write-record'] },
  { name: 'POST without the claim: nothing is sent', from: 'posting', transition: ['POST', 0], ctx: working({ envelope: envelopeA }), event: { type: 'POST', reply: 'ok', claim: other }, to: 'disposing', effects: [] },
  { name: 'POST with the claim', from: 'posting', transition: ['POST', 1], ctx: working({ envelope: envelopeA }), event: { type: 'POST', reply: 'timeout', claim: mine }, to: 'completing', effects: ['post'] },
  { name: 'complete: claim lost', from: 'completing', transition: ['STEP', 0], ctx: working({ envelope: envelopeA, outcome: 'confirmed' }), event: step(found(recA), dead), to: 'disposing', effects: [] },
  { name: 'complete: record unreadable, write nothing', from: 'completing', transition: ['STEP', 1], ctx: working({ envelope: envelopeA, outcome: 'confirmed' }), event: step({ kind: 'corrupt' }, mine), to: 'releasing', effects: [] },
  { name: 'complete: write the outcome', from: 'completing', transition: ['STEP', 2], ctx: working({ envelope: envelopeA, outcome: 'confirmed' }), event: step(found(recA), mine), to: 'releasing', effects: ['write-record'] },
  { name: 'release: claim lost', from: 'releasing', transition: ['STEP', 0], ctx: working(), event: step(found(deliveredA), { kind: 'torn' }), to: 'disposing', effects: [] },
  { name: 'release the claim', from: 'releasing', transition: ['STEP', 1], ctx: working(), event: step(found(deliveredA), mine), to: 'disposing', effects: ['release-claim'] },
  { name: 'dispose: archive the confirmed body of the generation read', from: 'disposing', transition: ['STEP', 0], ctx: working({ envelope: envelopeA, outcome: 'confirmed' }), event: step(found(deliveredA), { kind: 'free' }), to: 'idle', effects: ['archive'] },
  { name: 'dispose: quarantine a parked body', from: 'disposing', transition: ['STEP', 1], ctx: working({ envelope: envelopeA, outcome: 'definite' }), event: step(found(parkedA), { kind: 'free' }), to: 'idle', effects: ['quarantine'] },
  { name: 'dispose: leave a replaced file live', from: 'disposing', transition: ['STEP', 2], ctx: working({ envelope: envelopeA, outcome: 'confirmed' }), event: step(found(deliveredA), { kind: 'free' }, { id: 'a', body: 'B', generation: 2 }), to: 'idle', effects: [] },
];

/** Eventless transitions, checked through the step that triggers them. */
const EVENTLESS: { name: string; transition: [string, number]; from: LifecycleState; ctx: EngineContext; event: EngineEvent; to: LifecycleState }[] = [
  // completing -> releasing once the last completion write is done (always[0]); covered by 'complete: write the outcome'.
  { name: 'completion done moves on to release', transition: ['always:completing', 0], from: 'completing', ctx: working({ envelope: envelopeA, outcome: 'confirmed' }), event: step(found(recA), mine), to: 'releasing' },
];

function expectedEffects(c: Case, rule: RuleName): string[] {
  return Array.isArray(c.effects) ? c.effects : (c.effects[rule] ?? c.effects.default);
}

describe.each(CATALOG.map((r) => [r.name, r] as const))('lifecycle under %s', (name, rules) => {
  const stepper = xstateStepper(rules);
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const out = stepper({ state: c.from, ctx: c.ctx }, c.event);
    expect(out.state).toBe(c.toBy?.[name as RuleName] ?? c.to);
    expect(out.effects.map((e) => e.kind)).toEqual(expectedEffects(c, name as RuleName));
    expect(out.ctx.effect).toBeNull();
  });
  it.each(EVENTLESS.map((c) => [c.name, c] as const))('%s', (_, c) => {
    expect(stepper({ state: c.from, ctx: c.ctx }, c.event).state).toBe(c.to);
  });
  it('a rule that leaves the file live takes a step with no write', () => {
    const leaves = { ...rules, admit: () => ({ kind: 'leave' as const }) };
    const out = xstateStepper(leaves)({ state: 'idle', ctx: ctx() }, { type: 'SCAN', file: fileA, read: found(recA) });
    expect(out.state).toBe('idle');
    expect(out.effects).toEqual([]);
    expect(out.ctx.id).toBeNull();
  });
  it('a rule without a pre-send write skips the pre-send step (eventless)', () => {
    const noPreSend = { ...rules, preSend: () => null };
    const out = xstateStepper(noPreSend)({ state: 'claiming', ctx: working() }, step(found(recA), { kind: 'free' }));
    expect(out.state).toBe('posting');
    expect(out.ctx.envelope).toEqual(envelopeA);
  });
});

describe('the table covers the statechart', () => {
  it('every transition of the machine has a case', () => {
    const all = new Set<string>();
    for (const [key, node] of Object.entries(lifecycleMachine.root.states)) {
      for (const [eventType, defs] of node.transitions) defs.forEach((_, i) => all.add(`${key}:${eventType}:${i}`));
      (node.always ?? []).forEach((_, i) => all.add(`${key}:always:${i}`));
    }
    const covered = new Set<string>();
    for (const c of CASES) {
      covered.add(`${c.from}:${c.transition[0]}:${c.transition[1]}`);
      for (const t of Object.values(c.transitionBy ?? {})) if (t) covered.add(`${c.from}:${t[0]}:${t[1]}`);
    }
    for (const c of EVENTLESS) covered.add(`${c.from}:always:${c.transition[1]}`);
    covered.add('preSend:always:0'); // the pre-send skip test above
    covered.add('idle:SCAN:3'); // the leave-live test above
    expect([...all].filter((t) => !covered.has(t))).toEqual([]);
  });
});
