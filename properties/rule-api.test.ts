/**
 * The rule API states the decisions real reviews turn on (issue 19): each
 * test rule set in `rule-api/` uses one new part of the API, and the tool
 * finds the flaw that part makes expressible (and not in the fixed variant).
 */
import { describe, expect, it } from 'vitest';
import { TIME_ORIGIN } from '../model/time.ts';
import type { RuleSet } from '../model/rules.ts';
import { BOUNDS_DEFAULT, runShard, steppersFor } from '../sim/check.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../sim/outbox/explore-options.ts';
import { exploreOutbox } from '../sim/outbox/explore-outbox.ts';
import { labelOf } from '../sim/outbox/world.ts';
import { compiledStepper } from '../sim/outbox/compiled-stepper.ts';
import { xstateStepper } from '../sim/outbox/stepper.ts';
import { foundRead, freshRecord } from '../model/record.ts';
import admitIgnoresClaim from './rule-api/admit-ignores-claim.ts';
import admitRespectsClaim from './rule-api/admit-respects-claim.ts';
import stampVersion from './rule-api/stamp-version.ts';
import reopenMaxAttempts from './rule-api/reopen-max-attempts.ts';
import reopenMaxAttemptsOld from './rule-api/reopen-max-attempts-old.ts';
import failClosed from '../model/catalog/fail-closed.ts';
import { outboxSystem } from '../sim/outbox/outbox-system.ts';
import type { World, WorldEvent } from '../sim/outbox/world.ts';
import { extendRules, ruleSetProblem, type RequeueView } from '../model/rules.ts';
import { readSlot } from '../model/record.ts';
import { guardRules, RuleFault } from '../model/rule-contract.ts';
import tombstoneDelivered, { tombstone } from './rule-api/tombstone-delivered.ts';
import tombstoneTrustsAbsent from './rule-api/tombstone-trusts-absent.ts';
import payloadTrusted from './rule-api/payload-trusted.ts';
import payloadLowercased from './rule-api/payload-lowercased.ts';
import envelopeGzipLarge from './rule-api/envelope-gzip-large.ts';
import envelopeLatin1 from './rule-api/envelope-latin1.ts';
import tombstoneUndeclared from './rule-api/tombstone-undeclared.ts';
import selectBelowCap from './rule-api/select-below-cap.ts';
import selectBelowCapParks from './rule-api/select-below-cap-parks.ts';
import stampVersionOld from './rule-api/stamp-version-old.ts';
import stampVersionFixed from './rule-api/stamp-version-fixed.ts';
import stampVersionFixedOld from './rule-api/stamp-version-fixed-old.ts';
import transientWritesNothing from './rule-api/transient-writes-nothing.ts';
import poisonRetried from './rule-api/poison-retried.ts';
import poisonParked from './rule-api/poison-parked.ts';
import type { OutboxRecord } from '../model/types.ts';
import queuedInFlight from './rule-api/queued-in-flight.ts';
import queuedHandedOn from './rule-api/queued-handed-on.ts';
import queuedStranded from './rule-api/queued-stranded.ts';
import sweepParked from './rule-api/sweep-parked.ts';
import sweepByAge, { SWEEP_AGE } from './rule-api/sweep-by-age.ts';
import sweepDeliveredDeclared from './rule-api/sweep-delivered-declared.ts';
import { sweptBy } from '../sim/outbox/events/retention.ts';

/** `outbox-sim explore` with the eventually properties; every violated property when `all`. */
export function search(rules: RuleSet, oldRules: RuleSet | null, sizes: Partial<ExploreSizes>, all = false) {
  const worldRules = oldRules === null ? { rules } : { rules, oldRules };
  const r = exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), worldRules, steppersFor(rules, oldRules), {
    statesMax: 1_000_000,
    liveness: true,
    stopAtFirst: !all,
  });
  return { ...r, found: r.violations.map((v) => v.violation.property), paths: r.violations.map((v) => v.events.map(labelOf)) };
}

describe('every decision knows who decides (who: pid, rules, schema)', () => {
  it.each([['xstate', xstateStepper], ['compiled', compiledStepper]] as const)('the %s stepper tells preSend the engine pid, rule set and schema', (_name, stepper) => {
    const step = stepper(stampVersion)(
      { state: 'preSend', ctx: { pid: 7, attemptsMax: 2, id: 'a', file: null, envelope: null, outcome: null, pending: null, effect: null } },
      { type: 'STEP', read: foundRead(freshRecord('A', 0)), claim: { kind: 'held', mine: true, ownerAlive: true }, live: null },
    );
    const written = step.effects.find((fx) => fx.kind === 'write-record');
    expect(written?.kind === 'write-record' ? written.record : null).toMatchObject({ takenBy: 'stamp-version', takenPid: 7, takenSchema: stampVersion.schemaKnown });
  });
  it('on one version, stamping who took an attempt changes nothing: no violation', () => {
    const r = search(stampVersion, null, {});
    expect([r.complete, r.found]).toEqual([true, []]);
  });
  it('under version skew, parking in preSend a body the other version attempted is clean: a PARKED pre-send write is not POSTed', () => {
    // Until preSend could park instead of send, the engine POSTed the parked body (parked-stays-parked).
    const r = search(stampVersion, stampVersionOld, { skew: true });
    expect([r.complete, r.found]).toEqual([true, []]);
  });
  it('parking in complete instead (after the attempt) is clean under skew', () => {
    const r = search(stampVersionFixed, stampVersionFixedOld, { skew: true });
    expect([r.complete, r.found]).toEqual([true, []]);
  });
});

describe('publish sees the claim (admit view.claim)', () => {
  it('superseding a READY record while a live engine holds its claim: the attempt in flight completes the new body (no-phantom-delivery)', () => {
    const r = search(admitIgnoresClaim, null, {});
    expect(r.found).toEqual(['no-phantom-delivery']);
    const path = r.paths[0];
    // e2 admitted the new body after e1 claimed and before e1 completed.
    const claimed = path.indexOf('e1 claiming');
    const admitted = path.lastIndexOf('e2 scan a');
    expect(claimed).toBeGreaterThanOrEqual(0);
    expect(admitted).toBeGreaterThan(claimed);
    expect(path.slice(admitted)).toContain('e1 completing');
  });
  it('superseding only while the claim is free and nothing was attempted ends the phantom delivery; the dropped old body is still found', () => {
    const r = search(admitRespectsClaim, null, {}, true);
    expect(r.complete).toBe(true);
    expect(r.found).not.toContain('no-phantom-delivery');
    expect(r.found).toEqual(['no-silent-loss']);
  });
});

/** Steps a world by the labels of enabled events; throws when one is not enabled. */
function walk(rules: RuleSet, oldRules: RuleSet | null, sizes: Partial<ExploreSizes>, labels: readonly string[]): World {
  const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), oldRules === null ? { rules } : { rules, oldRules }, steppersFor(rules, oldRules));
  let w = system.initial();
  for (const label of labels) {
    const enabled: WorldEvent[] = system.choices(w).flatMap((c) => c.events);
    const e = enabled.find((x) => labelOf(x) === label);
    if (e === undefined) throw new Error(`${label} is not enabled; enabled: ${enabled.map(labelOf).join(', ')}`);
    w = system.step(w, e).state;
  }
  return w;
}

describe('mayClaim sees the record it would work on', () => {
  it('is given the id, the READY record, who decides and the clock, besides the claim', () => {
    const views: unknown[] = [];
    const spy: RuleSet = { ...failClosed, name: 'spy', mayClaim: (claim, view) => (views.push(view), failClosed.mayClaim(claim, view)) };
    walk(spy, null, { engines: 1 }, ['produce a', 'e1 scan a', 'e1 claiming']);
    expect(views).toEqual([{ id: 'a', record: expect.objectContaining({ status: 'READY', payload: 'A' }), who: { pid: 1, rules: 'spy', schema: failClosed.schemaKnown }, now: TIME_ORIGIN }]);
  });
});

describe('operator actions: the executing version\'s rules, and resubmit of READY and in-flight items', () => {
  it('under version skew each action is offered once per deployed version, and the old tool runs the old rule set\'s requeue', () => {
    const views: RequeueView[] = [];
    const spy = (name: string): RuleSet => ({ ...failClosed, name, requeue: (r, reset, v) => (v !== undefined && views.push(v), failClosed.requeue(r, reset, v)) });
    const w = walk(spy('new'), spy('old'), { skew: true, engines: 2, operatorActionsMax: 1 }, ['produce a', 'e1 scan a', 'e1 claiming', 'operator resubmit a (old rules)']);
    expect(views).toEqual([{ id: 'a', action: 'resubmit', claim: { kind: 'held', mine: false, ownerAlive: true }, who: { pid: null, rules: 'old', schema: failClosed.schemaKnown }, now: TIME_ORIGIN, stored: expect.objectContaining({ missing: [], illTyped: [] }) }]);
    expect(w.operatorActions).toBe(1);
  });
  it('without skew only the checked rule set\'s tool acts; resubmit is enabled on a READY record whose attempt is in flight', () => {
    const w = walk(failClosed, null, { operatorActionsMax: 1 }, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'operator resubmit a']);
    const slot = w.records.a;
    expect(slot?.kind === 'record' ? [slot.record.status, slot.record.resendEpoch] : null).toEqual(['READY', 1]);
    expect(() => walk(failClosed, null, { operatorActionsMax: 1 }, ['produce a', 'operator resubmit a (old rules)'])).toThrow(/not enabled/);
  });
  it('fail-closed stays clean with the operator\'s new power (resubmit of READY and in-flight items)', () => {
    const r = search(failClosed, null, { engines: 1, operatorActionsMax: 2 });
    expect([r.complete, r.found]).toEqual([true, []]);
  });
  it('a version whose requeue keeps the evidence of a possibly stored attempt is betrayed by the old version\'s tool: no-phantom-delivery, through an old-rules resubmit', () => {
    // Its own tool alone, or the skew without operator actions, delivers no phantom.
    const alone = search(reopenMaxAttempts, null, { operatorActionsMax: 1 }, true);
    expect(alone.found).not.toContain('no-phantom-delivery');
    const noOperator = search(reopenMaxAttempts, reopenMaxAttemptsOld, { skew: true }, true);
    expect(noOperator.found).not.toContain('no-phantom-delivery');
    // Every property's shortest trace: its park of a refusal after an unknown outcome also breaks honest-park (a finding of its own).
    const skewed = search(reopenMaxAttempts, reopenMaxAttemptsOld, { operatorActionsMax: 1, skew: true }, true);
    expect(skewed.found).toContain('no-phantom-delivery');
    expect(skewed.paths[skewed.found.indexOf('no-phantom-delivery')].some((l) => l.startsWith('operator ') && l.endsWith('(old rules)'))).toBe(true);
  });
});

describe('a record with no payload is legal when the rule set declares it (recordShape)', () => {
  const delivered = tombstone({ ...freshRecord('A', 0), status: 'DELIVERED' });
  const slot = { kind: 'record', record: delivered } as const;
  it('reads as corrupt by default, and as found and metadataOnly under the declared shape', () => {
    expect(readSlot(slot, 1)).toEqual({ kind: 'corrupt' });
    expect(readSlot(slot, 1, tombstoneUndeclared.recordShape)).toEqual({ kind: 'corrupt' });
    expect(readSlot(slot, 1, tombstoneDelivered.recordShape)).toEqual({ kind: 'found', record: delivered, legacy: false, metadataOnly: true, stored: { raw: delivered, missing: [], illTyped: [] } });
  });
  it('the contract accepts a record without payload only from a rule set that declares it', () => {
    const args = [freshRecord('A', 0), 'confirmed', { attemptsMax: 2 }] as const;
    const [written] = guardRules(tombstoneDelivered).complete(...args);
    expect(['payload' in written, written.status, written.digest]).toEqual([false, 'DELIVERED', delivered.digest]);
    expect(() => guardRules(tombstoneUndeclared).complete(...args)).toThrow(RuleFault);
    expect(() => guardRules(tombstoneUndeclared).complete(...args)).toThrow(/complete returned .*\(0\.payload: /);
  });
  it('a recordShape that is not one of the two is refused when a rule file is loaded', () => {
    expect(ruleSetProblem({ ...tombstoneDelivered, recordShape: { payload: 'maybe' } })).toMatch(/recordShape/);
    expect(ruleSetProblem(tombstoneDelivered)).toBeNull();
  });
  it('declared and matched by digest: clean, the same state space as fail-closed', () => {
    const r = search(tombstoneDelivered, null, {});
    expect([r.complete, r.found, r.states]).toEqual([true, [], 17611]);
  });
  it('a tombstone taken as "this id is done" archives a new body as delivered: no-phantom-delivery', () => {
    const r = search(tombstoneTrustsAbsent, null, {});
    expect(r.found).toEqual(['no-phantom-delivery']);
    expect(r.violations[0].violation.layer).toBe('archive');
  });
});

describe("which records the retention sweeper takes is a decision (sweepable)", () => {
  const record = (status: 'READY' | 'DELIVERED' | 'PARKED', extra: Record<string, unknown> = {}) => ({ kind: 'record', record: { ...freshRecord('A', 0), status, ...extra } }) as const;
  it('left out, an intact DELIVERED record with its payload only; declared, what it answers, told the clock from its origin', () => {
    expect(['READY', 'DELIVERED', 'PARKED'].map((st) => sweptBy(failClosed, record(st as 'READY'), 'a', 0))).toEqual([false, true, false]);
    expect(sweptBy(failClosed, tombstone(record('DELIVERED').record) as never, 'a', 0)).toBe(false);
    expect(sweptBy(failClosed, { kind: 'record', record: tombstone(record('DELIVERED').record) }, 'a', 0)).toBe(false);
    expect(['READY', 'DELIVERED', 'PARKED'].map((st) => sweptBy(sweepParked, record(st as 'READY'), 'a', 0))).toEqual([false, true, true]);
    // By age, whatever the status: written at the origin, taken once more than SWEEP_AGE ticks have passed.
    const old = record('READY', { writtenAt: TIME_ORIGIN });
    expect([sweptBy(sweepByAge, old, 'a', SWEEP_AGE), sweptBy(sweepByAge, old, 'a', SWEEP_AGE + 1)]).toEqual([false, true]);
    // Under retention: 'tombstone' a record already without payload is not asked about (nothing is left to take).
    expect(sweptBy({ ...sweepParked, sweepable: () => true }, { kind: 'record', record: tombstone(record('PARKED').record) }, 'a', 0)).toBe(false);
    expect(sweptBy({ ...sweepParked, retention: 'delete', sweepable: () => true }, { kind: 'record', record: tombstone(record('PARKED').record) }, 'a', 0)).toBe(true);
  });
  it('a tombstone of a parked record, replaced, notes no body: the swarm meets one, and the checker crashed there (round 23)', () => {
    // Seed 179 of sweep-parked, guarded as a rule file is: a PARKED record swept to a tombstone (no payload) and replaced.
    // The run goes on to the rule file's own defect, an envelope without a body, which the contract reports.
    const r = runShard({ rules: guardRules(sweepParked), oldRules: failClosed, skewDrawn: true, seedStart: 179, seeds: 1, broker: null, bounds: BOUNDS_DEFAULT }, 179, 180);
    expect([r.fault?.decision, r.fault?.detail]).toEqual(['envelope', expect.stringMatching(/^returned \{"id":"b","key":"b#6"\}/)]);
  });
  it('is an optional decision held to its contract (a boolean), told the record as read and what was stored', () => {
    expect(ruleSetProblem({ ...sweepParked, sweepable: 'yes' })).toMatch(/missing the decision `sweepable`/);
    const broken = guardRules({ ...sweepParked, name: 'sweepable-broken', sweepable: () => 'yes' as never });
    expect(() => sweptBy(broken, record('PARKED'), 'a', 0)).toThrow(/sweepable returned "yes", expected a boolean/);
    const views: unknown[] = [];
    sweptBy({ ...failClosed, sweepable: (_r, view) => views.push(view) > 0 }, record('PARKED'), 'a', 3);
    expect(views).toEqual([{ id: 'a', now: TIME_ORIGIN + 3, who: { pid: null, rules: 'fail-closed', schema: failClosed.schemaKnown }, stored: { raw: record('PARKED').record, missing: ['inFlight', 'unknownSeen'], illTyped: [] } }]);
  });
  it('declared as the default (DELIVERED records only): clean, the same states as fail-closed in the retention world', () => {
    const declared = search(sweepDeliveredDeclared, null, { settings: { retention: 1 } });
    const plain = search(failClosed, null, { settings: { retention: 1 } });
    expect([declared.complete, declared.found, declared.states, declared.transitions]).toEqual([true, [], plain.states, plain.transitions]);
    expect(plain.states).toBe(17971);
  });
  it('taking PARKED records too: a parked body is gone with nothing left for an operator (no-silent-loss)', () => {
    const r = search(sweepParked, null, { settings: { retention: 1 } });
    expect(r.found).toEqual(['no-silent-loss']);
    expect(r.paths[0]).toContain('retention sweeper deletes the PARKED record of a');
  });
  it('by age whatever the status: a pending record is deleted with its evidence of an attempt that stored the body (honest-park), only where the clock passes the age', () => {
    expect(search(sweepByAge, null, { bodiesPerId: 1, crashesMax: 0, settings: { retention: 1 } }).found).toEqual([]);
    const r = search(sweepByAge, null, { bodiesPerId: 1, crashesMax: 0, settings: { retention: 1, ticks: 2, jump: 100_000_000 } });
    expect(r.found).toEqual(['honest-park']);
    expect(r.paths[0]).toContain('retention sweeper deletes the READY record of a');
  });
});

describe('which records an engine selects is a decision (selectable)', () => {
  it('left out, every READY record is selected: fail-closed and a rule set selecting everything search the same states', () => {
    const all = search({ ...failClosed, name: 'select-all', selectable: () => true }, null, {});
    expect([all.complete, all.found, all.states, all.transitions]).toEqual([true, [], 17611, 48482]);
  });
  it('selecting attempts < N without parking at N leaves a body unsettled: settled-after-healing and no-silent-loss', () => {
    const r = search(selectBelowCap, null, {}, true);
    expect(r.found.sort()).toEqual(['no-silent-loss', 'settled-after-healing']);
  });
  it('parking at the cap it selects by is clean', () => {
    const r = search(selectBelowCapParks, null, {});
    expect([r.complete, r.found]).toEqual([true, []]);
  });
  it('an engine does not drain, claim or send a READY record it does not select', () => {
    const w = walk(selectBelowCap, null, { engines: 1 }, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'e1 POST -> unavailable-503', 'e1 completing', 'e1 releasing', 'e1 disposing', 'e1 scan a', 'e1 claiming']);
    // Back to idle without a claim: the record (attempts 1) was not selected.
    expect([w.engines[0].state, w.claims.a, w.records.a?.kind === 'record' ? w.records.a.record.status : null]).toEqual(['disposing', undefined, 'READY']);
  });
  it('a selectable that returns a non-boolean breaks its contract', () => {
    const broken = guardRules({ ...failClosed, name: 'select-broken', selectable: () => 'yes' as never });
    expect(() => broken.selectable?.(freshRecord('A', 0), { id: 'a', who: { pid: 1, rules: 'x', schema: 1 }, now: 0 })).toThrow(/selectable returned "yes", expected a boolean/);
  });
});

describe('a record may be QUEUED (some engines\' status for a cycle under way)', () => {
  it('the contract accepts QUEUED, and no status beyond the four', () => {
    const queued = guardRules({ ...failClosed, name: 'queued-contract', preSend: (r) => ({ ...r, status: 'QUEUED' }) });
    expect(queued.preSend(freshRecord('A', 0))?.status).toBe('QUEUED');
    const sent = guardRules({ ...failClosed, name: 'sent-contract', preSend: (r) => ({ ...r, status: 'SENT' as never }) });
    expect(() => sent.preSend(freshRecord('A', 0))).toThrow(/expected one of "READY"\|"QUEUED"\|"DELIVERED"\|"PARKED"/);
  });
  it('QUEUED as the pre-send write, with fail-closed\'s evidence, is clean; a QUEUED record is drained, claimed and sent as a READY one is', () => {
    const r = search(queuedInFlight, null, {});
    expect([r.complete, r.found]).toEqual([true, []]);
    // A crash after the pre-send write leaves the record QUEUED; the restarted engine drains and sends it.
    const w = walk(queuedInFlight, null, { engines: 1, crashesMax: 1 }, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'crash e1 (posting)', 'restart engine (new)', 'e2 scan a', 'e2 claiming', 'e2 preSend']);
    expect([w.engines[0].state, w.records.a?.kind === 'record' ? w.records.a.record.status : null]).toEqual(['posting', 'QUEUED']);
  });
  it('QUEUED written first on a confirmed POST, the evidence cleared, is found: a crash between the two writes, and a refused resend parks a body the broker holds (honest-park)', () => {
    expect(search(queuedHandedOn, null, {}).found).toEqual(['honest-park']);
  });
  it('QUEUED records never selected again strand their bodies: settled-after-healing', () => {
    expect(search(queuedStranded, null, {}).found).toEqual(['settled-after-healing']);
  });
});

describe('complete may write nothing (an empty list)', () => {
  it('the contract accepts no write, and the engine completes its attempt without one', () => {
    const guarded = guardRules(transientWritesNothing);
    expect(guarded.complete(freshRecord('A', 0), 'transient', { attemptsMax: 2 }, { who: { pid: 1, rules: 'x', schema: 1 }, now: 0 })).toEqual([]);
    const w = walk(transientWritesNothing, null, { engines: 1 }, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'e1 POST -> unavailable-503', 'e1 completing', 'e1 releasing']);
    // The pre-send write is the record's last: READY, still marked in flight, its attempt not counted.
    expect(w.records.a?.kind === 'record' ? [w.records.a.record.status, w.records.a.record.attempts, w.records.a.record.inFlight] : null).toEqual(['READY', 0, true]);
  });
  it('a 503 that writes nothing is never counted, so the engine retries it forever: quiet-after-healing', () => {
    const r = search(transientWritesNothing, null, {});
    expect(r.found).toEqual(['quiet-after-healing']);
  });
});

describe('a stored payload altered but still readable (alter-payload, delivered-as-written)', () => {
  const CORRUPT = { corruptionsMax: 1, crashesMax: 0 };
  it('a rule set that sends a pending record whatever its digest says delivers the altered body: delivered-as-written, while the record and the broker agree', () => {
    const r = search(payloadTrusted, null, CORRUPT, true);
    expect(r.found).toContain('delivered-as-written');
    const path = r.paths[r.found.indexOf('delivered-as-written')];
    expect(path).toContain('alter-payload a');
    expect(path.indexOf('alter-payload a')).toBeLessThan(path.findIndex((l) => l.includes('POST')));
  });
  it('a rule set that stores every body in lower case is found by delivered-as-written alone, without any fault', () => {
    const r = search(payloadLowercased, null, { crashesMax: 0 }, true);
    expect(r.found).toEqual(['delivered-as-written']);
  });
  it('fail-closed, which checks the digest before it sends, is clean under alter-payload (and under two corruptions)', () => {
    const r = search(failClosed, null, { ...CORRUPT, engines: 1 }, true);
    expect([r.complete, r.found]).toEqual([true, []]);
    const two = search(failClosed, null, { engines: 1, bodiesPerId: 1, corruptionsMax: 2, crashesMax: 0 }, true);
    expect([two.complete, two.found]).toEqual([true, []]);
  });
});

describe('an envelope that encodes bodies says how consumers read them (decode)', () => {
  const LARGE = { engines: 1, bodiesPerId: 1, bodyShape: 'large:2049' };
  it('a reversible compression with its decode is clean on bodies it compresses, and the same envelope without decode is judged by the compressed bytes', () => {
    const r = search(envelopeGzipLarge, null, LARGE, true);
    expect([r.complete, r.found]).toEqual([true, []]);
    const { decode: _decode, ...undecoded } = envelopeGzipLarge;
    expect(search({ ...undecoded, name: 'gzip-undecoded' }, null, LARGE, true).found).toContain('delivered-as-written');
  });
  it('a decode that does not invert its envelope (Latin-1 base64) is found where bodies hold characters past U+00FF, and not on letters', () => {
    expect(search(envelopeLatin1, null, { engines: 1, bodiesPerId: 1, bodyShape: 'astral' }, true).found).toContain('delivered-as-written');
    const plain = search(envelopeLatin1, null, { engines: 1, bodiesPerId: 1 }, true);
    expect([plain.complete, plain.found]).toEqual([true, []]);
  });
  it('a decode held to its contract: one that returns no string is a broken decision', () => {
    const bad = guardRules(extendRules(failClosed, { name: 'decode-null', summary: 'decode returns null', decode: () => null as unknown as string }));
    expect(() => bad.decode?.('A')).toThrow(RuleFault);
  });
});

describe('preSend may park instead of send (a poison message)', () => {
  const POISON_WORLD = { engines: 1, bodiesPerId: 1, attemptsMax: 2, crashesMax: 0, settings: { poison: 1 } } as const;
  it('counting no started send, a body that kills the engine at its POST is retried for ever: quiet-after-healing', () => {
    const r = search(poisonRetried, null, POISON_WORLD);
    expect(r.found).toEqual(['quiet-after-healing']);
    // No POST of the poison body ever left an engine: the loop is its crashes.
    expect(r.paths[0].some((l) => l.includes('POST'))).toBe(false);
  });
  it('parking in preSend past the cap, with a send that never completed, is clean; so is fail-closed, which now does', () => {
    for (const rules of [poisonParked, failClosed]) {
      const r = search(rules, null, POISON_WORLD);
      expect([rules.name, r.complete, r.found]).toEqual([rules.name, true, []]);
    }
  });
  it('a PARKED pre-send write is written and not POSTed: the engine goes on to release its claim', () => {
    const parks = { ...failClosed, name: 'parks-at-once', preSend: (record: OutboxRecord) => ({ ...record, status: 'PARKED' as const, reason: 'outcome-unknown' as const }) };
    for (const stepper of [xstateStepper, compiledStepper]) {
      const out = stepper(parks)(
        { state: 'preSend', ctx: { pid: 1, attemptsMax: 2, id: 'a', file: null, envelope: null, outcome: null, pending: null, effect: null } },
        { type: 'STEP', read: foundRead(freshRecord('A', 0)), claim: { kind: 'held', mine: true, ownerAlive: true }, live: null },
      );
      expect(out.state).toBe('releasing');
      expect(out.ctx.envelope).toBeNull();
      expect(out.effects.map((fx) => (fx.kind === 'write-record' ? `${fx.kind}:${fx.record.status}` : fx.kind))).toEqual(['write-record:PARKED']);
    }
  });
});
