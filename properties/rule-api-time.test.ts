/**
 * Time in the rule API (issue 19 item 5, issue 20 item 7; docs/rules.md,
 * 'Time'): a logical clock decisions see, leases a rule may take over, and
 * fencing as the rule set's decision. Each test rule set in `rule-api/`
 * uses one of them, and the tool finds the flaw it makes expressible (and
 * not in the fixed variant).
 */
import { TIME_ORIGIN } from '../model/time.ts';
import { describe, expect, it } from 'vitest';
import failClosed from '../model/catalog/fail-closed.ts';
import { guardRules, RuleFault } from '../model/rule-contract.ts';
import { ruleSetProblem, type RuleSet } from '../model/rules.ts';
import { BOUNDS_DEFAULT, fixedOptions, seedBounds, steppersFor } from '../sim/check.ts';
import { runSeed } from '../sim/core/random.ts';
import { claimView } from '../sim/outbox/events/context.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../sim/outbox/explore-options.ts';
import { exploreOutbox } from '../sim/outbox/explore-outbox.ts';
import { swarmOptions } from '../sim/outbox/options.ts';
import { outboxSystem } from '../sim/outbox/outbox-system.ts';
import { labelOf, type World, type WorldEvent } from '../sim/outbox/world.ts';
import leaseFenced from './rule-api/lease-fenced.ts';
import leaseUnfenced from './rule-api/lease-unfenced.ts';
import retryBackoff, { backoffRules } from './rule-api/retry-backoff.ts';
import retryWindow from './rule-api/retry-window.ts';
import retryWindowUnparked from './rule-api/retry-window-unparked.ts';
import retryWindowDishonest from './rule-api/retry-window-dishonest.ts';
import evidenceExpires, { EXPIRY } from './rule-api/evidence-expires.ts';
import retryBackoffLong, { BACKOFF as LONG_BACKOFF } from './rule-api/retry-backoff-long.ts';
import selectBelowCap from './rule-api/select-below-cap.ts';
import { boundVerdict, quietVerdict } from '../sim/core/liveness.ts';
import { runCli } from '../sim/cli/test-cli.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** `outbox-sim explore` with the eventually properties, every violated property listed. */
function search(rules: RuleSet, sizes: Partial<ExploreSizes>) {
  const r = exploreOutbox(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null), { statesMax: 1_000_000, liveness: true, stopAtFirst: false });
  return { ...r, found: r.violations.map((v) => v.violation.property), paths: r.violations.map((v) => v.events.map(labelOf)) };
}

/** A small world with leases: two engines, one body, a lease of one tick, the clock's horizon at two. */
const LEASES: Partial<ExploreSizes> = { bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1 } };

/** Steps a world by the labels of enabled events (throws when one is not enabled); the tags of each step. */
function walk(rules: RuleSet, sizes: Partial<ExploreSizes>, labels: readonly string[]): { w: World; tags: string[][] } {
  const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null));
  let w = system.initial();
  const tags: string[][] = [];
  for (const label of labels) {
    const enabled: WorldEvent[] = system.choices(w).flatMap((c) => c.events);
    const e = enabled.find((x) => labelOf(x) === label);
    if (e === undefined) throw new Error(`${label} is not enabled; enabled: ${enabled.map(labelOf).join(', ')}`);
    const out = system.step(w, e);
    w = out.state;
    tags.push([...out.tags]);
  }
  return { w, tags };
}

describe('a world without a clock is the world it always was', () => {
  it('declaring every write fenced, or none, changes nothing where no live holder loses its claim: 17,611 states, 48,482 transitions', () => {
    for (const fences of [() => true, () => false]) {
      const r = search({ ...failClosed, name: 'fences-declared', fences }, {});
      expect([r.complete, r.found, r.states, r.transitions, r.explorer]).toEqual([true, [], 17611, 48482, 'packed']);
    }
  });
  it('a world with a clock has a clock slot; the packed explorer searches it (tick and stall are packed), with the object explorer\'s counts', () => {
    const r = search(failClosed, LEASES);
    expect([r.complete, r.found, r.explorer, r.states, r.transitions]).toEqual([true, [], 'packed', 3498, 10721]);
  });
});

describe('leases: a claim whose lease expired, its holder alive (ClaimView.expired)', () => {
  it('a held claim says whether its lease expired, only in a world with leases', () => {
    const base = { engines: [{ pid: 1 }], claims: { a: { kind: 'held', owner: 1, until: 3 } } } as unknown as World;
    expect(claimView({ ...base, clock: 2 }, 'a', 2)).toEqual({ kind: 'held', mine: false, ownerAlive: true, expired: false });
    expect(claimView({ ...base, clock: 3 }, 'a', 2)).toEqual({ kind: 'held', mine: false, ownerAlive: true, expired: true });
    const timeless = { ...base, claims: { a: { kind: 'held', owner: 1 } } } as unknown as World;
    expect(claimView(timeless, 'a', 2)).toEqual({ kind: 'held', mine: false, ownerAlive: true });
  });
  it('a stall advances the clock by one lease: the stalled holder keeps its state and its claim reads expired', () => {
    const { w } = walk(leaseFenced, LEASES, ['produce a', 'e1 scan a', 'e1 claiming', 'stall e1 (preSend) to tick 1']);
    expect([w.clock, w.engines[0].state, w.claims.a]).toEqual([1, 'preSend', { kind: 'held', owner: 1, until: 1 }]);
    expect(claimView(w, 'a', 2)).toMatchObject({ ownerAlive: true, expired: true });
  });
  it('fail-closed does not take an expired claim from a live holder', () => {
    expect(() => walk(failClosed, LEASES, ['produce a', 'e1 scan a', 'e1 claiming', 'stall e1 (preSend) to tick 1', 'e2 scan a', 'e2 claiming', 'e2 preSend'])).toThrow(/e2 preSend is not enabled/);
  });
});

describe('fencing is the rule set\'s decision (fences)', () => {
  const takeover = ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'stall e1 (posting) to tick 1', 'e2 scan a', 'e2 claiming', 'e2 preSend', 'e2 POST -> accept', 'e1 POST -> accept'];
  it('fenced (the default): the stale holder checks its claim token and abandons its attempt, no POST', () => {
    const { w, tags } = walk(leaseFenced, LEASES, takeover);
    expect(tags[tags.length - 1]).not.toContain('layer:post');
    expect(w.engines.find((p) => p.pid === 1)?.state).toBe('disposing');
  });
  it('unfenced: the world lets the stale holder POST beside the engine that took its claim over (two relays sending at once)', () => {
    const { w, tags } = walk(leaseUnfenced, { ...LEASES, broker: 'log' }, takeover);
    expect(tags[tags.length - 1]).toContain('layer:post');
    expect(tags[tags.length - 1]).toContain('layer:duplicate');
    // Both engines have an attempt in flight for a.
    expect(w.engines.map((p) => [p.pid, p.state])).toEqual([[1, 'completing'], [2, 'completing']]);
  });
  it('unfenced, the stale holder writes its outcome over the new holder\'s attempt: it parks a body the new holder then POSTs (parked-stays-parked), which fencing prevents', () => {
    const fenced = search(leaseFenced, LEASES);
    const unfenced = search(leaseUnfenced, LEASES);
    expect([fenced.complete, unfenced.complete]).toEqual([true, true]);
    expect(fenced.found).not.toContain('parked-stays-parked');
    expect(unfenced.found).toContain('parked-stays-parked');
    const path = unfenced.paths[unfenced.found.indexOf('parked-stays-parked')];
    // e1 completes (parks) after e2 took the claim over, and e2 POSTs after that.
    expect(path.indexOf('e1 completing')).toBeGreaterThan(path.indexOf('e2 claiming'));
    expect(path.lastIndexOf('e2 POST -> accept')).toBeGreaterThan(path.indexOf('e1 completing'));
  });
  it('a lease shorter than an attempt is a finding even fenced: the POST made before the stall is still in flight when the new holder POSTs (exclusive-attempt; at-most-once under --broker log)', () => {
    expect(search(leaseFenced, LEASES).found).toEqual(['exclusive-attempt']);
    expect(search(leaseFenced, { ...LEASES, broker: 'log', atMostOnce: true }).found.sort()).toEqual(['at-most-once', 'exclusive-attempt']);
    expect(search(leaseUnfenced, { ...LEASES, broker: 'log', atMostOnce: true }).found.sort()).toEqual(['at-most-once', 'exclusive-attempt', 'parked-stays-parked']);
  });
  it('fences is an optional decision held to its contract (a boolean)', () => {
    expect(ruleSetProblem(leaseUnfenced)).toBeNull();
    expect(ruleSetProblem({ ...leaseUnfenced, fences: 'no' })).toMatch(/missing the decision `fences`/);
    const broken = guardRules({ ...leaseUnfenced, name: 'fences-broken', fences: () => 'no' as never });
    expect(() => broken.fences?.('post')).toThrow(RuleFault);
    expect(() => broken.fences?.('post')).toThrow(/fences returned "no", expected a boolean/);
  });
});

describe('decisions see the clock (view.now): retry windows and back-off', () => {
  const WINDOWS: Partial<ExploreSizes> = { settings: { ticks: 3 }, attemptsMax: 4, engines: 1 };
  it('parking once the retry window is exhausted is clean', () => {
    const r = search(retryWindow, WINDOWS);
    expect([r.complete, r.found]).toEqual([true, []]);
  });
  it('parking retry-window-exhausted after an attempt that may have stored the body says it was not delivered: honest-park', () => {
    const r = search(retryWindowDishonest, WINDOWS);
    expect(r.found).toEqual(['honest-park']);
  });
  it('a window that stops selecting instead of parking leaves a body unsettled: settled-after-healing and no-silent-loss', () => {
    const r = search(retryWindowUnparked, WINDOWS);
    expect(r.found.sort()).toEqual(['no-silent-loss', 'settled-after-healing']);
    // Its record still holds the body: stranded, not gone.
    const lost = r.violations.find((v) => v.violation.property === 'no-silent-loss');
    expect(lost?.violation.detail).toMatch(/^a=A is stranded: its record holds it READY, but no engine will send it/);
    // Found after time passed the window.
    expect(r.paths[0].filter((l) => l.startsWith('tick ')).length).toBeGreaterThanOrEqual(2);
  });
  it('a back-off that waits for a later tick is no finding: quiet is judged after time runs on, and at the horizon a wait is not judged', () => {
    const r = search(retryBackoff, { settings: { ticks: 3 }, attemptsMax: 3, engines: 1 });
    expect([r.complete, r.found]).toEqual([true, []]);
  });
  it('a world waiting for time to pass is not quiet: the back-off\'s record is retried once time runs on', () => {
    const sizes = { settings: { ticks: 3 }, attemptsMax: 3, engines: 1 };
    const { w } = walk(retryBackoff, sizes, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'e1 POST -> unavailable-503', 'e1 completing', 'e1 releasing', 'e1 disposing']);
    const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules: retryBackoff }, steppersFor(retryBackoff, null));
    const healed = system.heal?.(w) as World;
    expect([system.quiescent?.(healed), system.waitsForTime?.(healed)]).toEqual([false, true]);
    expect(system.waitsForTime?.({ ...healed, clock: 2 })).toBe(false);
  });
  it('in random runs (check) the liveness phase lets time run on: the window that stops selecting is caught, the one that parks and the back-off are clean', () => {
    const seeds = Array.from({ length: 300 }, (_, i) => i + 1);
    const violated = (rules: RuleSet) => {
      const steppers = steppersFor(rules, null);
      const found = new Set<string>();
      for (const seed of seeds) {
        const options = swarmOptions(seed, { settings: { ticks: 64, lease: 2 } });
        const r = runSeed(outboxSystem(options, { rules }, steppers), seed, seedBounds(BOUNDS_DEFAULT, options));
        if (r.violation !== null) found.add(r.violation.property);
      }
      return [...found].sort();
    };
    expect(violated(retryWindowUnparked)).toContain('settled-after-healing');
    expect(violated(retryWindow)).toEqual([]);
    expect(violated(retryBackoff)).toEqual([]);
  }, 120_000);
});

const tmp = mkdtempSync(join(tmpdir(), 'outbox-sim-time-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a world without a clock: its time stands still, so a wait there is not judged (docs/rules.md, \'Time\')', () => {
  const TIMELESS: Partial<ExploreSizes> = { attemptsMax: 3, engines: 1 };
  const backedOff = ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'e1 POST -> unavailable-503', 'e1 completing', 'e1 releasing', 'e1 disposing'];
  it("a back-off's record waits for tick 2 that never comes: quiet, and waiting for time, so its liveness is not judged (it was settled-after-healing)", () => {
    const { w } = walk(retryBackoff, TIMELESS, backedOff);
    const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...TIMELESS }), { rules: retryBackoff }, steppersFor(retryBackoff, null));
    const healed = system.heal?.(w) as World;
    const slot = w.records.a;
    expect([w.clock, slot?.kind === 'record' ? slot.record.retryAt : null, system.quiescent?.(healed), system.waitsForTime?.(healed)]).toEqual([undefined, TIME_ORIGIN + 2, true, true]);
    expect(quietVerdict(system, healed)).toBe('waiting');
    // Asked of the world the check keeps: the probe leaves it without a clock.
    expect(w.clock).toBeUndefined();
  });
  it('a record stuck for a reason time does not change is still judged: select-below-cap strands it now and later (settled-after-healing)', () => {
    const r = search(selectBelowCap, {});
    expect(r.found).toContain('settled-after-healing');
    const { w } = walk(selectBelowCap, TIMELESS, backedOff);
    const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...TIMELESS }), { rules: selectBelowCap }, steppersFor(selectBelowCap, null));
    const healed = system.heal?.(w) as World;
    expect(system.waitsForTime?.(healed)).toBe(false);
    expect(quietVerdict(system, healed)).toMatchObject({ property: 'settled-after-healing' });
  });
  it('explore counts the quiet states it left unjudged, and says so beside its proof; fail-closed waits for nothing', async () => {
    const r = search(retryBackoff, {});
    expect([r.complete, r.found, r.waitingUnjudged > 0]).toEqual([true, [], true]);
    expect(search(failClosed, {}).waitingUnjudged).toBe(0);
    const cli = await runCli('explore', '--rules', 'properties/rule-api/retry-backoff.ts', '--out', join(tmp, 'explore'));
    // The command searches with symmetry reduction (one state per class), so its count is its own.
    const note = cli.out.find((l) => l.startsWith('  note: ') && l.includes('quiet states waited for a later time this search does not reach'));
    expect(note).toContain('give the world a clock (--ticks N, and --jump N for long windows) to judge it');
    const counted = /note: (\d+) quiet states/.exec(note ?? '')?.[1];
    expect(cli.out.at(-1)).toBe(`RESULT: no property violated in the whole bounded space (a proof for this world; liveness not judged at ${counted} quiet states waiting for time)`);
    expect(Number(counted)).toBeGreaterThan(0);
    // check's small worlds say it per world (the default world is explore's default world).
    const checked = await runCli('check', '--rules', 'properties/rule-api/retry-backoff.ts', '--small-worlds-only', '--json', '--out', join(tmp, 'check'));
    const worlds = (JSON.parse(checked.out.join('\n')) as { smallWorlds: { worlds: { name: string; waitingUnjudged?: number }[] } }).smallWorlds.worlds;
    expect(worlds[0]).toMatchObject({ name: 'default', waitingUnjudged: Number(counted) });
  }, 60_000);
  it('engines that keep scanning files they do not select are not retrying: at the bound, passes that change nothing are let end and the world judged (settle)', () => {
    const { w } = walk(retryBackoff, TIMELESS, [...backedOff, 'e1 scan a']);
    const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...TIMELESS }), { rules: retryBackoff }, steppersFor(retryBackoff, null));
    expect(w.engines[0].state).not.toBe('idle');
    const settled = system.settle?.(w) ?? null;
    expect(settled?.engines.map((p) => p.state)).toEqual(['idle']);
    expect(boundVerdict(system, system.heal?.(w) as World)).toBe('waiting');
    // A pass that POSTs is no such pass: fail-closed's engine in the same place sends the body.
    const { w: sending } = walk(failClosed, TIMELESS, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend']);
    const plain = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...TIMELESS }), { rules: failClosed }, steppersFor(failClosed, null));
    expect(plain.settle?.(sending)).toBeNull();
    // The run that found it: the back-off beside fail-closed, seed 4235, three engines scanning for 400 steps
    // (reported as quiet-after-healing), now ends waiting.
    const steppers = steppersFor(retryBackoff, failClosed);
    const options = swarmOptions(4235, fixedOptions({ broker: null, oldRules: failClosed }));
    const r = runSeed(outboxSystem(options, { rules: retryBackoff, oldRules: failClosed }, steppers), 4235, seedBounds(BOUNDS_DEFAULT, options));
    expect([r.end, r.violation]).toEqual(['waiting', null]);
  });
  it('the default world: the back-off is clean; random runs without a clock that go quiet waiting end `waiting`, none with one', () => {
    expect(search(retryBackoff, {}).found).toEqual([]);
    const steppers = steppersFor(retryBackoff, null);
    const ends = new Map<string, number>();
    for (let seed = 1; seed <= 200; seed++) {
      const options = swarmOptions(seed, { settings: { ticks: 0 } });
      const r = runSeed(outboxSystem(options, { rules: retryBackoff }, steppers), seed, seedBounds(BOUNDS_DEFAULT, options));
      ends.set(r.end, (ends.get(r.end) ?? 0) + 1);
    }
    expect(ends.get('violation')).toBeUndefined();
    expect(ends.get('waiting')).toBeGreaterThan(0);
    for (let seed = 1; seed <= 100; seed++) {
      const options = swarmOptions(seed, { settings: { ticks: 64, lease: 2 } });
      expect(runSeed(outboxSystem(options, { rules: retryBackoff }, steppers), seed, seedBounds(BOUNDS_DEFAULT, options)).end).not.toBe('waiting');
    }
  }, 120_000);
});

describe('long waits: windows of tens to thousands of ticks pass (docs/faults.md, long-wait)', () => {
  /** The suite's clock world (sim/small-worlds.ts), with long waits of `jump` ticks. */
  const clockWorld = (jump: number): Partial<ExploreSizes> => ({ bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1, jump } });

  it(`an expiry of the sign of a stored body after ${EXPIRY} ticks is found in the suite's clock world, and only with long waits`, () => {
    expect(EXPIRY).toBeGreaterThan(64);
    const found = search(evidenceExpires, clockWorld(1_000));
    expect(found.found).toContain('honest-park');
    const path = found.paths[found.found.indexOf('honest-park')];
    expect(path.some((l) => l.startsWith('long wait to tick '))).toBe(true);
    // A tick at a time, the clock stops at the horizon long before the sign expires.
    expect(search(evidenceExpires, clockWorld(0)).found).not.toContain('honest-park');
    expect(search(failClosed, clockWorld(1_000)).found).toEqual([]);
  });

  /** The properties violated over seeds 1-300 of the swarm with a clock, and the jump given. */
  const violatedInSwarm = (rules: RuleSet, settings: Readonly<Record<string, number>>): string[] => {
    const steppers = steppersFor(rules, null);
    const found = new Set<string>();
    for (let seed = 1; seed <= 300; seed++) {
      const options = swarmOptions(seed, { settings });
      const r = runSeed(outboxSystem(options, { rules }, steppers), seed, seedBounds(BOUNDS_DEFAULT, options));
      if (r.violation !== null) found.add(r.violation.property);
    }
    return [...found].sort();
  };

  it('a back-off longer than the first look-ahead (1,800 ticks, and 86,400) is waited out, not reported stuck, with a clock or without', () => {
    for (const backoff of [1_800, 86_400]) {
      const rules = backoffRules(`retry-backoff-${backoff}`, backoff);
      // With a clock the liveness phase waits it out (long waits); without one the world is waiting, not judged.
      expect(violatedInSwarm(rules, { ticks: 64, lease: 2, jump: 5_000 }), `${backoff}, clock`).toEqual([]);
      expect(violatedInSwarm(rules, { ticks: 0 }), `${backoff}, no clock`).toEqual([]);
      // The quiet test sees it: a world quiet now, waiting for its back-off, is not quiet.
      const sizes = { settings: { ticks: 3 }, attemptsMax: 3, engines: 1 };
      const { w } = walk(rules, sizes, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'e1 POST -> unavailable-503', 'e1 completing', 'e1 releasing', 'e1 disposing']);
      const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null));
      const healed = system.heal?.(w) as World;
      expect([system.quiescent?.(healed), system.waitsForTime?.(healed)]).toEqual([false, true]);
    }
  }, 120_000);

  it('a retry window of 500,000 ticks, and one of a day in milliseconds, pass in the swarm\'s faulty phase: drawn long waits reach them', () => {
    const jumps = Array.from({ length: 1000 }, (_, i) => swarmOptions(i + 1).settings?.jump ?? 0);
    expect(jumps.filter((j) => j >= 500_000).length).toBeGreaterThan(50);
    expect(jumps.filter((j) => j >= 86_400_000).length).toBeGreaterThan(20);
  });

  it(`a back-off of ${LONG_BACKOFF} ticks is no retrying forever: the liveness phase passes it by long waits, and without them the bound waits it out`, () => {
    expect(violatedInSwarm(retryBackoffLong, { ticks: 64, lease: 2 })).toEqual([]);
    // Without long waits a tick at a time does not pass it in 400 steps: the bound waits it out (outbox-system.ts,
    // waitOut; sim/outbox/wait-out.test.ts), where it was reported busy before.
    expect(violatedInSwarm(retryBackoffLong, { ticks: 64, lease: 2, jump: 0 })).toEqual([]);
  }, 120_000);

  it('the swarm draws long waits for every seed, 2 to 1,000,000,000 ticks, and a world without a clock has none', () => {
    const jumps = Array.from({ length: 400 }, (_, i) => swarmOptions(i + 1).settings?.jump ?? 0);
    expect(Math.min(...jumps)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...jumps)).toBeLessThanOrEqual(1_000_000_000);
    // Spread over the orders of magnitude: some of a few ticks, some of tens of thousands, some of millions.
    expect(jumps.filter((j) => j < 20).length).toBeGreaterThan(30);
    expect(jumps.filter((j) => j > 10_000 && j < 1_000_000).length).toBeGreaterThan(30);
    expect(jumps.filter((j) => j > 1_000_000).length).toBeGreaterThan(30);
    const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, settings: { jump: 50 } }), { rules: failClosed }, steppersFor(failClosed, null));
    expect(system.choices(system.initial()).flatMap((c) => c.events).filter((e) => e.kind === 'long-wait')).toEqual([]);
  });

  it('a long wait moves the clock by jump below the horizon, not at it, and by at least 1,000 once faults stop', () => {
    const options = exploreOptions({ ...EXPLORE_DEFAULTS, settings: { ticks: 5, jump: 7 } });
    const system = outboxSystem(options, { rules: failClosed }, steppersFor(failClosed, null));
    const waits = (w: World) => system.choices(w).flatMap((c) => c.events).filter((e) => e.kind === 'long-wait');
    const w0 = system.initial();
    expect(waits(w0)).toEqual([{ kind: 'long-wait', to: 7 }]);
    expect(waits({ ...w0, clock: 4 })).toEqual([{ kind: 'long-wait', to: 11 }]);
    expect(waits({ ...w0, clock: 5 })).toEqual([]);
    expect(waits({ ...w0, clock: 12, healing: true })).toEqual([{ kind: 'long-wait', to: 1_012 }]);
  });
});

