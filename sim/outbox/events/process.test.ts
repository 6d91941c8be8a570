/**
 * Restarts under stable identities (`--stable-ids`, events/process.ts): an
 * engine that is gone may come back under its pid (one restart event per
 * such engine), and then meets the claim its predecessor held as its own;
 * with fresh pids nothing of it exists. The quiet test asks that engine too
 * (outbox-system.ts), and the packed explorer leaves such a world to the
 * object system, without symmetry reduction.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import ownClaimRefused from '../../../properties/mutants/own-claim-refused.ts';
import { extendRules, type RuleSet } from '../../../model/rules.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { exploreOutbox } from '../explore-outbox.ts';
import { outboxSystem } from '../outbox-system.ts';
import { claimView } from './context.ts';
import { takeLabelled } from '../test-labels.ts';
import { labelOf, type World } from '../world.ts';

const sizes = { ...EXPLORE_DEFAULTS, bodiesPerId: 1, attemptsMax: 1 };

function systemOf(stableIds: number, rules: RuleSet = failClosed, crashesMax = 1) {
  return outboxSystem(exploreOptions({ ...sizes, crashesMax, settings: { stableIds } }), { rules }, steppersFor(rules, null));
}

type System = ReturnType<typeof systemOf>;

const take = (system: System, w: World, label: string): World => takeLabelled(system, w, label).state;

const labels = (system: System, w: World) => system.choices(w).flatMap((g) => g.events).map(labelOf);

/** e1 claims `a` and crashes before its pre-send write: its claim stays, held by a pid that is gone. */
function crashedHolding(system: System): World {
  let w = system.initial();
  for (const l of ['produce a', 'e1 scan a', 'e1 claiming', 'crash e1 (preSend)']) w = take(system, w, l);
  return w;
}

/** After {@link crashedHolding}: the restarts offered, and the world after the one labelled `label`. */
function restartedAfterCrash(stableIds: number, label: string) {
  const system = systemOf(stableIds);
  const w = crashedHolding(system);
  return { w, restarts: labels(system, w).filter((l) => l.startsWith('restart')), after: take(system, w, label) };
}

describe('restarts under stable identities', () => {
  it('with fresh pids (the default), a restart takes the next pid and meets the claim as a dead engine\'s', () => {
    const { restarts, after } = restartedAfterCrash(0, 'restart engine (new)');
    expect(restarts).toEqual(['restart engine (new)']);
    expect(after.engines.map((p) => p.pid)).toEqual([2, 3]);
    expect(after.nextPid).toBe(4);
    expect(claimView(after, 'a', 3)).toEqual({ kind: 'held', mine: false, ownerAlive: false });
  });

  it('with stable identities, each engine that is gone may come back under its pid, and meets its predecessor\'s claim as its own', () => {
    const { w, restarts, after } = restartedAfterCrash(1, 'restart engine as e1 (new)');
    expect(restarts).toEqual(['restart engine as e1 (new)']);
    expect(after.engines.map((p) => p.pid)).toEqual([2, 1]);
    // No fresh pid was handed out.
    expect(after.nextPid).toBe(w.nextPid);
    expect(claimView(after, 'a', 1)).toEqual({ kind: 'held', mine: true, ownerAlive: true });
    expect(claimView(after, 'a', 2)).toEqual({ kind: 'held', mine: false, ownerAlive: true });
    // Both gone: either may come back first.
    const twice = systemOf(1, failClosed, 2);
    const both = take(twice, crashedHolding(twice), 'crash e2 (idle)');
    expect(labels(twice, both).filter((l) => l.startsWith('restart'))).toEqual(['restart engine as e1 (new)', 'restart engine as e2 (new)']);
  });

  it('healing restarts the engines that are gone under their pids, not fresh ones: a rule set whose records wait for the engine that first sent them is not stranded', () => {
    const system = systemOf(1);
    const healed = (system.heal as (w: World) => World)(crashedHolding(system));
    expect(healed.engines.map((p) => p.pid)).toEqual([2, 1]);
    expect(healed.nextPid).toBe(3);
    expect(claimView(healed, 'a', 1)).toEqual({ kind: 'held', mine: true, ownerAlive: true });
    const fresh = systemOf(0);
    expect((fresh.heal as (w: World) => World)(crashedHolding(fresh)).engines.map((p) => p.pid)).toEqual([2, 3]);
    // Its first sender's, by pid: stranded only where that engine never comes back under its name.
    const sticky = extendRules(failClosed, {
      name: 'sticky-sender',
      summary: 'a record whose send began is selected only by the engine that began it',
      preSend: (record, view) => ({ ...(failClosed.preSend(record, view) ?? record), firstSender: record.firstSender ?? view?.who.pid }),
      selectable: (record, view) => record.firstSender === undefined || record.firstSender === view.who.pid,
    });
    const r = exploreOutbox(exploreOptions({ ...sizes, engines: 1, settings: { stableIds: 1 } }), { rules: sticky }, steppersFor(sticky, null), { statesMax: 100_000, liveness: true });
    expect([r.complete, r.violations.map((v) => v.violation.property)]).toEqual([true, []]);
  });

  it('fail-closed takes its own claim; refusing it (own-claim-refused) strands the id, and the quiet test asks the engine that holds it', () => {
    const world = { ...sizes, settings: { stableIds: 1 } };
    const search = (rules: RuleSet) => exploreOutbox(exploreOptions(world), { rules }, steppersFor(rules, null), { statesMax: 100_000, liveness: true, symmetry: true });
    const clean = search(failClosed);
    expect(clean.complete).toBe(true);
    expect(clean.violations).toEqual([]);
    expect(clean.explorer).toBe('objects');
    expect(clean.fallback).toMatch(/--stable-ids/);
    expect(clean.symmetry).toBe(false);
    expect(clean.symmetryOff).toMatch(/--stable-ids/);
    const found = search(ownClaimRefused);
    expect(found.violations.map((v) => v.violation.property)).toEqual(['settled-after-healing']);
  });
});
