/**
 * The two failing sequences of docs/rules.md ('The catalog'), driven by hand one event at
 * a time, asserting the record, the claim, the files and what the broker
 * holds after every step; and the same sequence under fail-closed, which
 * quarantines B instead.
 */
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle, freshCycleAfterDefinite } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import { noPhantomDelivery } from './properties.ts';
import { outboxSystem } from './outbox-system.ts';
import { type Answer, type WorldOptions } from './options.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from './explore-options.ts';
import type { World, WorldEvent } from './world.ts';

function options(attemptsMax: number): WorldOptions {
  return {
    engines: 1, ids: 1, bodiesPerId: 2, attemptsMax, broker: 'id-ok', skew: false,
    crashesMax: 0, corruptionsMax: 0, operatorActionsMax: 0,
    weights: exploreOptions(EXPLORE_DEFAULTS).weights, faultGroupWeight: 1, healAnswer: 'accept', faultStepsMax: 120,
  };
}

/** What a test asserts after a step. */
interface Expect {
  status?: string | null;
  payload?: string;
  reason?: string;
  claim?: 'held' | null;
  live?: string | null;
  quarantined?: string[];
  archived?: string[];
  broker?: string | null;
}

function look(w: World) {
  const slot = w.records.a;
  return {
    status: slot?.kind === 'record' ? slot.record.status : null,
    payload: slot?.kind === 'record' ? slot.record.payload : undefined,
    reason: slot?.kind === 'record' ? slot.record.reason : undefined,
    claim: w.claims.a?.kind ?? null,
    live: w.live.a?.body ?? null,
    quarantined: w.quarantined.map((q) => `${q.body}:${q.cause}`),
    archived: w.archived.map((f) => f.body),
    broker: w.broker.a?.body ?? null,
  };
}

function drive(rules: RuleSet, attemptsMax: number, script: [WorldEvent, Expect][]): World {
  const system = outboxSystem(options(attemptsMax), { rules });
  let w = system.initial();
  script.forEach(([event, want], i) => {
    const enabled = system.choices(w).flatMap((g) => g.events);
    expect(enabled, `step ${i + 1} ${system.label(event)} must be enabled`).toContainEqual(event);
    w = system.step(w, event).state;
    const seen = look(w);
    for (const [k, v] of Object.entries(want)) expect(seen[k as keyof typeof seen], `step ${i + 1} ${system.label(event)}: ${k}`).toEqual(v);
  });
  return w;
}

const produce: WorldEvent = { kind: 'produce', id: 'a' };
const scan: WorldEvent = { kind: 'scan', pid: 1, id: 'a' };
const at = (s: 'claiming' | 'preSend' | 'completing' | 'releasing' | 'disposing'): WorldEvent => ({ kind: 'step', pid: 1, at: s });
const answer = (a: Answer): WorldEvent => ({ kind: 'answer', pid: 1, answer: a });

/** One attempt at A, from scan to dispose, ending with the given record and file state. */
function attemptA(reply: Answer, after: Expect, dispose: Expect): [WorldEvent, Expect][] {
  return [
    [scan, { status: 'READY', payload: 'A', claim: null }],
    [at('claiming'), { claim: 'held' }],
    [at('preSend'), { status: 'READY' }],
    [answer(reply), {}],
    [at('completing'), after],
    [at('releasing'), { claim: null }],
    [at('disposing'), dispose],
  ];
}

describe('fresh-cycle breaks no-phantom-delivery (docs/rules.md)', () => {
  it('A stored with its reply lost, parks; B admitted fresh, answered as a duplicate success', () => {
    const w = drive(freshCycle, 1, [
      [produce, { live: 'A', status: null, broker: null }],
      ...attemptA('lost-reply', { status: 'PARKED', reason: 'outcome-unknown', broker: 'A' }, { live: null, quarantined: ['A:parked-outcome-unknown'] }),
      [produce, { live: 'B', status: 'PARKED' }],
      [scan, { status: 'READY', payload: 'B', broker: 'A' }],
      [at('claiming'), { claim: 'held' }],
      [at('preSend'), {}],
      [answer('accept'), { broker: 'A' }],
      [at('completing'), { status: 'DELIVERED', payload: 'B', broker: 'A' }],
    ]);
    expect(noPhantomDelivery.check(w)?.detail).toBe('record a says DELIVERED B but the broker holds A');
  });
});

describe('fresh-cycle-after-definite breaks the same way (docs/rules.md)', () => {
  it('attempt 1 stores A with its reply lost, attempt 2 gets a 409, B is admitted and reported delivered', () => {
    const w = drive(freshCycleAfterDefinite, 2, [
      [produce, { live: 'A' }],
      ...attemptA('lost-reply', { status: 'READY', broker: 'A' }, { live: 'A' }),
      ...attemptA('refuse-409', { status: 'PARKED', reason: 'permanent-refusal' }, { live: null, quarantined: ['A:parked-permanent-refusal'] }),
      [produce, { live: 'B' }],
      [scan, { status: 'READY', payload: 'B' }],
      [at('claiming'), { claim: 'held' }],
      [at('preSend'), {}],
      [answer('accept'), { broker: 'A' }],
      [at('completing'), { status: 'DELIVERED', payload: 'B', broker: 'A' }],
    ]);
    expect(noPhantomDelivery.check(w)?.property).toBe('no-phantom-delivery');
  });
});

describe('fail-closed on the same sequence', () => {
  it('quarantines B and never sends it', () => {
    const w = drive(failClosed, 1, [
      [produce, { live: 'A' }],
      ...attemptA('lost-reply', { status: 'PARKED', broker: 'A' }, { quarantined: ['A:parked-outcome-unknown'] }),
      [produce, { live: 'B' }],
      [scan, { status: 'PARKED', payload: 'A', live: null, quarantined: ['A:parked-outcome-unknown', 'B:parked-id-new-body'] }],
    ]);
    expect(noPhantomDelivery.check(w)).toBeNull();
  });
});
