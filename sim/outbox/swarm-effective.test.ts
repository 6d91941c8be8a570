/**
 * A feature the swarm's coverage counts `on` is one the world can produce
 * (issue 21): for every seed's options, each kind whose feature reads `on`
 * has a step the world can draw (enabled, with a weight above 0) in some
 * reachable state, and a kind reading `off` has none. The states come from
 * random walks in a world where everything is on; the seed's options
 * (weights, settings, budgets) then decide which kinds' steps those states
 * offer. Before this held, a covering row could switch a stall on in a world
 * without leases, or a torn record on with no corruption budget, and the
 * report counted pairs that never happened.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import { HEALTHY_ANSWER } from './events/broker.ts';
import { EVENT_KINDS, kindOf } from './events/table.ts';
import { outboxSystem } from './outbox-system.ts';
import { swarmKnobs, swarmOptions, type FixedOptions, type WorldOptions } from './options.ts';
import { xstateStepper } from './stepper.ts';
import { COVERED_SEEDS, swarmFeatures, tieBreaker } from './swarm-coverage.ts';
import type { World, WorldEvent } from './world.ts';
import type { TransitionSystem } from '../core/system.ts';

const steppers = { new: xstateStepper(failClosed), old: xstateStepper(failClosed), oldQueued: xstateStepper(failClosed) };

/** A world where every kind can happen: every knob on, every setting on, every budget above 0. */
const EVERYTHING: WorldOptions = {
  engines: 2,
  ids: 2,
  bodiesPerId: 3,
  attemptsMax: 5,
  broker: 'id-ok',
  skew: false,
  crashesMax: 2,
  corruptionsMax: 2,
  operatorActionsMax: 2,
  // The window and bounds at the top of what the swarm draws, so a state here is one any drawn world reaches.
  settings: { ticks: 64, lease: 2, lateLanding: 6, retention: 6, dedupeWindow: 6, poison: 1 },
  weights: Object.fromEntries(swarmKnobs().map((k) => [k.name, k.name === HEALTHY_ANSWER ? 8 : 1])),
  faultGroupWeight: 2,
  healAnswer: HEALTHY_ANSWER,
  faultStepsMax: 60,
};

/** The operator's actions: the operator feature says whether any can happen. */
const OPERATOR_KINDS = EVENT_KINDS.filter((k) => k.group === 'operator' && k.knob === null).map((k) => k.name);

/** The kinds whose steps a world can draw in `w` (enabled, group and event weight above 0). */
function drawable(system: TransitionSystem<World, WorldEvent>, w: World): Set<string> {
  const out = new Set<string>();
  for (const g of system.choices(w)) {
    if (g.weight <= 0) continue;
    g.events.forEach((e, i) => {
      if (g.eventWeights === undefined || g.eventWeights[i] > 0) out.add(kindOf(e).name);
    });
  }
  return out;
}

/** Index drawn in proportion to `weights`. */
function pick(rand: () => number, weights: readonly number[]): number {
  let x = rand() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i];
    if (x < 0) return i;
  }
  return weights.length - 1;
}

/**
 * Per kind, up to `per` states of random walks in EVERYTHING in which it
 * can be drawn. The walks draw as the swarm does (a group by its weight, an
 * event by its own), so the broker's memory ages to the widest window drawn.
 */
function probeStates(walks: number, steps: number, per: number): Map<string, World[]> {
  const system = outboxSystem(EVERYTHING, { rules: failClosed }, steppers);
  const rand = tieBreaker(21);
  const found = new Map<string, World[]>();
  for (let walk = 0; walk < walks; walk++) {
    let w = system.initial();
    for (let n = 0; n < steps; n++) {
      const groups = system.choices(w).filter((g) => g.events.length > 0 && g.weight > 0);
      for (const name of new Set(groups.flatMap((g) => g.events.map((e) => kindOf(e).name)))) {
        const list = found.get(name) ?? [];
        if (list.length < per && rand() < 0.5) list.push(w);
        found.set(name, list);
      }
      if (groups.length === 0) break;
      const g = groups[pick(rand, groups.map((x) => x.weight))];
      w = system.step(w, g.events[pick(rand, g.eventWeights ?? g.events.map(() => 1))]).state;
    }
  }
  return found;
}

describe('a feature on is a feature the world can produce', () => {
  const states = probeStates(100, 300, 12);
  const kindsOf = (feature: string): string[] => (feature === 'operator' ? OPERATOR_KINDS : EVENT_KINDS.some((k) => k.name === feature) ? [feature] : []);

  it('the probe reaches a state for every kind a feature names', () => {
    for (const f of swarmFeatures({})) for (const k of kindsOf(f.name)) expect(states.get(k)?.length ?? 0, k).toBeGreaterThan(0);
  });

  it.each<[string, FixedOptions, number[]]>([
    ['the covering rows and random seeds', {}, [...Array.from({ length: COVERED_SEEDS }, (_, i) => i + 1), ...Array.from({ length: 64 }, (_, i) => COVERED_SEEDS + 1 + i)]],
    ['fixed leases', { settings: { ticks: 64, lease: 2 } }, Array.from({ length: 48 }, (_, i) => i + 1)],
    ['a fixed broker and operator budget', { broker: 'key', operatorActionsMax: 10 }, Array.from({ length: 48 }, (_, i) => i + 1)],
  ])('%s: every feature reading on has a kind the world can draw, off none', (_what, fixed, seeds) => {
    const features = swarmFeatures(fixed).filter((f) => kindsOf(f.name).length > 0);
    const wrong: string[] = [];
    for (const seed of seeds) {
      const o = swarmOptions(seed, fixed);
      // The seed's options on the probe's sizes (and its ids' names): what decides whether a kind can happen.
      const probe: WorldOptions = { ...EVERYTHING, ...o, engines: EVERYTHING.engines, ids: EVERYTHING.ids, longIds: EVERYTHING.longIds, idShape: EVERYTHING.idShape, bodiesPerId: EVERYTHING.bodiesPerId, attemptsMax: EVERYTHING.attemptsMax, skew: false };
      const system = outboxSystem(probe, { rules: failClosed }, steppers);
      for (const f of features) {
        const on = f.read(o) !== 'off' && f.read(o) !== '0';
        const kinds = kindsOf(f.name);
        const candidates = kinds.flatMap((k) => states.get(k) ?? []);
        const can = candidates.some((w) => kinds.some((k) => drawable(system, w).has(k)));
        if (on !== can) wrong.push(`seed ${seed}: ${f.name} reads ${f.read(o)} but the world ${can ? 'can' : 'cannot'} draw it`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
