/**
 * Late landing and record retention (issue 20 items 2 and 4): a POST the
 * engine saw time out may stay in transit and land later, in any order,
 * within a reported bound; a retention sweeper deletes DELIVERED records
 * unless the rule set keeps a tombstone. Both are off in explore's default
 * world, whose pinned counts stay (explore.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import type { RuleSet } from '../../../model/rules.ts';
import retentionDeletesRecord from '../../../properties/mutants/retention-deletes-record.ts';
import timeoutAsDefinite from '../../../properties/mutants/timeout-as-definite.ts';
import { BOUNDS_DEFAULT, seedBounds, steppersFor } from '../../check.ts';
import { runSeed } from '../../core/random.ts';
import { exploreOutbox } from '../explore-outbox.ts';
import { withoutAnswer } from './broker.ts';
import { dedupeMemory } from './dedupe-window.ts';
import { runCli } from '../../cli/test-cli.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import { swarmOptions, type FixedOptions, type WorldOptions } from '../options.ts';
import type { World, WorldEvent } from '../world.ts';

function systemOf(sizes: Partial<ExploreSizes>, rules: RuleSet = failClosed) {
  return outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null));
}

type System = ReturnType<typeof systemOf>;

function enabled(sys: System, w: World): WorldEvent[] {
  return sys.choices(w).flatMap((g) => g.events);
}

/** Takes the first enabled event `match` accepts. */
function take(sys: System, w: World, match: (e: WorldEvent) => boolean): { state: World; tags: readonly string[] } {
  const e = enabled(sys, w).find(match);
  if (e === undefined) throw new Error(`no such event among ${JSON.stringify(enabled(sys, w))}`);
  return sys.step(w, e);
}

/** Engine 1 starts a pass on `a` (its live file) and steps up to its POST. */
function nextPost(sys: System, from: World): World {
  let w = from;
  while (w.engines[0].state !== 'idle') w = take(sys, w, (e) => e.kind === 'step' && e.pid === 1).state;
  w = take(sys, w, (e) => e.kind === 'scan' && e.pid === 1).state;
  while (w.engines[0].state !== 'posting') w = take(sys, w, (e) => e.kind === 'step' && e.pid === 1).state;
  return w;
}

/** Engine 1 takes a first file for `a` up to its POST. */
function toPosting(sys: System): World {
  return nextPost(sys, take(sys, sys.initial(), (e) => e.kind === 'produce').state);
}

describe('late landing', () => {
  it('a POST answered timeout-in-transit is not at the broker until it lands; the answer that fills the list is tagged, and no more are offered', () => {
    const sys = systemOf({ settings: { lateLanding: 1 } });
    const posting = toPosting(sys);
    // The slot exists only while a POST is in transit.
    expect(posting.inTransit).toBeUndefined();
    const sent = take(sys, posting, (e) => e.kind === 'post-in-transit');
    expect(sent.tags).toEqual(expect.arrayContaining(['answer:timeout-in-transit', 'layer:post', 'fault:in-transit-full']));
    expect(sent.state.broker).toEqual({});
    expect(sent.state.inTransit).toEqual([{ id: 'a', body: 'A', key: 'a#0' }]);
    expect(sent.state.engines[0].state).toBe('completing');
    // The bound: with one in transit no engine is offered the answer again, and the world is not quiet.
    const w = nextPost(sys, sent.state);
    expect(enabled(sys, w).some((e) => e.kind === 'post-in-transit')).toBe(false);
    const landed = take(sys, w, (e) => e.kind === 'land');
    expect(landed.tags).toEqual(expect.arrayContaining(['fault:land', 'layer:stored']));
    expect(landed.state.broker.a?.body).toBe('A');
    expect(landed.state.inTransit).toBeUndefined();
    expect(enabled(sys, landed.state).some((e) => e.kind === 'post-in-transit')).toBe(true);
  });

  it('POSTs in transit land in any order, also after the engine parked the attempt', () => {
    const sys = systemOf({ settings: { lateLanding: 2 }, attemptsMax: 2 });
    let w = take(sys, toPosting(sys), (e) => e.kind === 'post-in-transit').state;
    w = take(sys, nextPost(sys, w), (e) => e.kind === 'post-in-transit').state;
    // Two timeouts at attemptsMax 2: parked outcome-unknown, both POSTs still on the wire.
    while (w.engines[0].state !== 'idle') w = take(sys, w, (e) => e.kind === 'step' && e.pid === 1).state;
    const slot = w.records.a;
    expect(slot?.kind === 'record' ? [slot.record.status, slot.record.reason] : null).toEqual(['PARKED', 'outcome-unknown']);
    const lands = enabled(sys, w).filter((e) => e.kind === 'land');
    expect(lands.map((e) => (e.kind === 'land' ? e.index : -1))).toEqual([0, 1]);
    expect(sys.quiescent?.(w)).toBe(false);
    // The newer one first.
    const later = sys.step(w, lands[1]).state;
    expect(later.inTransit).toEqual([{ id: 'a', body: 'A', key: 'a#0' }]);
    expect(later.broker.a?.body).toBe('A');
    expect(sys.properties.filter((p) => p.kind === 'always').map((p) => p.check(later))).toEqual(sys.properties.filter((p) => p.kind === 'always').map(() => null));
  });

  it('off, it offers nothing and the world has no slot for it', () => {
    const sys = systemOf({});
    const w = toPosting(sys);
    expect(w.inTransit).toBeUndefined();
    expect(enabled(sys, w).filter((e) => e.kind === 'post-in-transit' || e.kind === 'land' || e.kind === 'sweep')).toEqual([]);
  });

  it('fail-closed holds every property in the default world with late landing on (explore, with liveness)', () => {
    const rules = failClosed;
    const r = exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, settings: { lateLanding: 1 } }), { rules }, steppersFor(rules, null), { statesMax: 1_000_000, liveness: true });
    // Searched on packed states (packed/kinds.ts), with the counts the object explorer pinned.
    expect([r.explorer, r.complete, r.violations, r.states, r.transitions]).toEqual(['packed', true, [], 24944, 75543]);
  }, 120_000);
});

describe('late landing under a dedupe window', () => {
  it('a POST left in transit and its landing are broker steps: entries age on both, and a landing for a forgotten id is stored again', () => {
    const sys = systemOf({ settings: { lateLanding: 1, dedupeWindow: 1 }, engines: 1, crashesMax: 0, attemptsMax: 5 });
    let w = take(sys, toPosting(sys), (e) => e.kind === 'answer' && e.answer === 'lost-reply').state;
    expect(dedupeMemory(w)).toEqual({ a: 0 });
    w = take(sys, nextPost(sys, w), (e) => e.kind === 'post-in-transit').state;
    expect(dedupeMemory(w)).toEqual({ a: 1 });
    w = take(sys, w, (e) => e.kind === 'forget').state;
    expect(dedupeMemory(w)).toEqual({});
    const landed = take(sys, w, (e) => e.kind === 'land');
    expect(landed.tags).toEqual(expect.arrayContaining(['fault:land', 'layer:stored']));
    expect(dedupeMemory(landed.state)).toEqual({ a: 0 });
  });
});

/** Runs seeds 1..n of the swarm with `fixed` (and `world` applied to each seed's options); the properties violated. */
function violated(rules: RuleSet, n: number, fixed: FixedOptions, world: (o: WorldOptions) => WorldOptions = (o) => o): Set<string> {
  const out = new Set<string>();
  const steppers = steppersFor(rules, null);
  for (let seed = 1; seed <= n; seed++) {
    const options = world(swarmOptions(seed, fixed));
    const run = runSeed(outboxSystem(options, { rules }, steppers), seed, seedBounds(BOUNDS_DEFAULT, options));
    if (run.violation !== null) out.add(run.violation.property);
  }
  return out;
}

/** A broker whose timeouts never store when answered (no `lost-reply`): the mutant table's world for timeout-as-definite. */
const noLostReply = (o: WorldOptions): WorldOptions => withoutAnswer(o, 'lost-reply');

describe('late landing: what only it catches', () => {
  it('a timeout taken for a refusal is safe where timeouts never store, and caught (honest-park) once a timed-out POST may land later', () => {
    expect(violated(timeoutAsDefinite, 1500, { settings: { lateLanding: 0 } }, noLostReply)).toEqual(new Set());
    expect(violated(timeoutAsDefinite, 1500, { settings: { lateLanding: 2 } }, noLostReply)).toEqual(new Set(['honest-park']));
  }, 120_000);
});

describe('record retention', () => {
  it('the mutant that lets the sweeper delete records is caught only where the sweeper runs', () => {
    expect(violated(retentionDeletesRecord, 400, { settings: { retention: 0 } })).toEqual(new Set());
    expect(violated(retentionDeletesRecord, 400, {})).toContain('no-phantom-delivery');
  }, 120_000);

  it('fail-closed keeps a tombstone: a later body for the swept id is quarantined, not sent', () => {
    const sys = systemOf({ settings: { retention: 1 }, operatorActionsMax: 1 });
    let w = take(sys, toPosting(sys), (e) => e.kind === 'answer' && e.answer === 'accept').state;
    while (w.engines[0].state !== 'idle') w = take(sys, w, (e) => e.kind === 'step' && e.pid === 1).state;
    w = take(sys, w, (e) => e.kind === 'sweep').state;
    const slot = w.records.a;
    expect(slot?.kind === 'record' ? [slot.record.status, slot.record.payload] : null).toEqual(['DELIVERED', undefined]);
    expect(enabled(sys, w).some((e) => e.kind === 'sweep')).toBe(false);
    w = take(sys, w, (e) => e.kind === 'produce').state;
    w = take(sys, w, (e) => e.kind === 'scan' && e.pid === 1).state;
    expect(w.quarantined.map((q) => [q.body, q.cause])).toEqual([['B', 'delivered-id-retained']]);
  });

  it('explore: fail-closed holds with a sweep; the deleting sweeper is caught', () => {
    const search = (rules: RuleSet) => exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, settings: { retention: 1 } }), { rules }, steppersFor(rules, null), { statesMax: 1_000_000, liveness: true });
    const fine = search(failClosed);
    expect([fine.complete, fine.violations, fine.states]).toEqual([true, [], 17971]);
    // Shortest: a quarantined file replayed after the sweep is refused and parked as never delivered.
    expect(search(retentionDeletesRecord).violations.map((v) => v.violation.property)).toEqual(['honest-park']);
  }, 120_000);
});

describe('their flags come off the table (world settings)', () => {
  it('check --late-landing and --retention fix them in every seed and say so; out of bounds is one line, exit 2', async () => {
    const r = await runCli('check', '--seed', '7', '--late-landing', '2', '--retention', '3', '--out', 'scratch/late-landing');
    expect(r.out[0]).toContain('late landing (at most 2 POSTs in transit), retention sweeps 3');
    expect(r.out[1]).toContain('inTransitMax=2 ');
    expect(r.out[1]).toContain('sweepsMax=3 ');
    const bad = await runCli('check', '--late-landing', '11');
    expect([bad.code, bad.err.length]).toEqual([2, 1]);
    expect(bad.err[0]).toContain('--late-landing');
  });

  it('explore --late-landing says so in its first line', async () => {
    const r = await runCli('explore', '--engines', '1', '--late-landing', '1', '--retention', '1', '--out', 'scratch/late-landing');
    expect(r.out[0]).toContain('late landing (at most 1 POSTs in transit), retention sweeps 1');
    expect(r.code).toBe(0);
  }, 120_000);
});
