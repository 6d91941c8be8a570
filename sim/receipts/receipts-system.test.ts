import { describe, expect, it } from 'vitest';
import { SOUND_DISPATCHER } from '../../model/receipts/dispatcher.ts';
import { readNewest, type Reader } from '../../model/receipts/reader.ts';
import { canonicalJson } from '../core/canonical.ts';
import { explore } from '../core/explore.ts';
import type { TransitionSystem } from '../core/system.ts';
import { runSeed } from '../core/random.ts';
import { worldKey } from './key.ts';
import { receiptsSystem } from './receipts-system.ts';
import { EXPLORE_DISPATCH, EXPLORE_STORE, RANDOM_OPTIONS } from './options.ts';
import type { ReceiptsEvent, ReceiptsWorld } from './world.ts';

type Receipts = TransitionSystem<ReceiptsWorld, ReceiptsEvent>;

/** The same system watching one property only, so the search stops at that property's shortest counterexample. */
const only = (m: Receipts, property: string): Receipts => ({ ...m, properties: m.properties.filter((p) => p.name === property) });

const SAFETY = ['no-second-start-per-key', 'one-running-execution-per-task', 'reader-diagnostic-honest', 'store-keeps-bytes'];

describe('receipts system under the generic explorer', () => {
  it('declares its always properties', () => {
    const m = receiptsSystem(EXPLORE_DISPATCH);
    expect(m.properties.filter((p) => p.kind === 'always').map((p) => p.name)).toEqual(SAFETY);
  });

  it('explores the dispatcher world completely with no violation (pinned state count)', () => {
    const r = explore(receiptsSystem(EXPLORE_DISPATCH), { statesMax: 1_000_000, stopAtFirst: false });
    expect(r.violations.map((v) => v.violation.property)).toEqual([]);
    expect(r.complete).toBe(true);
    expect(r.states).toBe(95_417);
  });

  it('explores the receipt-file world completely with no violation (pinned state count)', () => {
    const r = explore(receiptsSystem(EXPLORE_STORE), { statesMax: 1_000_000, stopAtFirst: false });
    expect(r.violations.map((v) => v.violation.property)).toEqual([]);
    expect(r.complete).toBe(true);
    expect(r.states).toBe(4_398);
  });
});

describe('deliberately broken variants are caught', () => {
  it('a dispatcher whose attempt store does not dedupe by key starts a key twice', () => {
    const m = receiptsSystem({ ...EXPLORE_DISPATCH, dispatcher: { ...SOUND_DISPATCHER, offerByKey: false } });
    const r = explore(only(m, 'no-second-start-per-key'), { statesMax: 1_000_000 });
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0].violation).toMatchObject({ property: 'no-second-start-per-key', subject: 'k1', layer: 'start' });
    expect(r.violations[0].events.map((e) => m.label(e))).toEqual([
      'kernel 1 handles k1',
      'kernel 2 handles k1',
      'kernel 1: dispatcher check',
      'kernel 1: dispatcher offer',
      'kernel 1: dispatcher claim',
      'kernel 1: dispatcher start',
      'SDK: execution 1 succeeds',
      'kernel 2: dispatcher check',
      'kernel 2: dispatcher offer',
      'kernel 2: dispatcher claim',
      'kernel 2: dispatcher start',
    ]);
  });

  it('a dispatcher that claims terminal attempts starts a key twice', () => {
    const m = receiptsSystem({ ...EXPLORE_DISPATCH, dispatcher: { ...SOUND_DISPATCHER, refuseTerminal: false } });
    const r = explore(only(m, 'no-second-start-per-key'), { statesMax: 1_000_000 });
    expect(r.violations.map((v) => v.violation.property)).toEqual(['no-second-start-per-key']);
  });

  it('a dispatcher without per-task serialization runs two executions of one task at once', () => {
    const m = receiptsSystem({ ...EXPLORE_DISPATCH, dispatcher: { ...SOUND_DISPATCHER, serializePerTask: false } });
    const r = explore(only(m, 'one-running-execution-per-task'), { statesMax: 1_000_000 });
    expect(r.violations.map((v) => v.violation.detail)).toEqual(['task t1 has 2 executions running at once (keys k1, k2)']);
  });

  it('the kernel with a counting executor and no dispatcher starts a key twice', () => {
    const m = receiptsSystem({ ...EXPLORE_DISPATCH, backend: 'counting-executor' });
    const r = explore(only(m, 'no-second-start-per-key'), { statesMax: 1_000_000 });
    expect(r.violations.map((v) => v.violation.property)).toEqual(['no-second-start-per-key']);
  });

  it('a reader that reports only found or absent hides damage', () => {
    const legacy: Reader = (s, k) => {
      const r = readNewest(s, k);
      return { ...r, diagnostic: r.record !== null ? 'found' : 'absent' };
    };
    const m = receiptsSystem(EXPLORE_STORE, legacy);
    const r = explore(only(m, 'reader-diagnostic-honest'), { statesMax: 1_000_000 });
    expect(r.violations[0].violation.detail).toBe('the reader said absent for k1 but a pending row was written for it');
    expect(r.violations[0].events.map((e) => m.label(e))).toEqual(['kernel 1 handles k1', 'fault: damage receipt line 1']);
  });
});

describe('receipts system under the generic random runner', () => {
  const system = receiptsSystem(RANDOM_OPTIONS);
  const bounds = { faultStepsMax: 60, healStepsMax: 200 };

  it('runs 300 seeds with no violation, each ending quiet, reaching every fault path', () => {
    const reached = new Set<string>();
    for (let seed = 1; seed <= 300; seed++) {
      const r = runSeed(system, seed, bounds);
      expect(r.violation, `seed ${seed}`).toBeNull();
      expect(r.end).toBe('quiet');
      for (const p of r.reached) reached.add(p);
    }
    expect([...reached].sort()).toEqual(system.properties.filter((p) => p.kind === 'sometimes').map((p) => p.name).sort());
  });

  it('replays a seed exactly', () => {
    const a = runSeed(system, 42, bounds);
    const b = runSeed(system, 42, bounds);
    expect(b.steps.map((s) => s.label)).toEqual(a.steps.map((s) => s.label));
    expect(worldKey(b.final)).toBe(worldKey(a.final));
  });

  it('keys states exactly as canonical JSON does (equal iff equal)', () => {
    const byKey = new Map<string, string>();
    const byCanonical = new Map<string, string>();
    for (let seed = 1; seed <= 40; seed++) {
      for (const s of runSeed(system, seed, bounds, true).states ?? []) {
        const k = worldKey(s);
        const c = canonicalJson(s);
        expect(byKey.get(k) ?? c).toBe(c);
        expect(byCanonical.get(c) ?? k).toBe(k);
        byKey.set(k, c);
        byCanonical.set(c, k);
      }
    }
    expect(byKey.size).toBeGreaterThan(1000);
  });
});
