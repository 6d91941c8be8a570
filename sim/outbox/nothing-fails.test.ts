/**
 * A world where nothing fails (nothing-fails.ts): only the healthy answer
 * is offered, no fault fires, and no record may park
 * (parked-only-on-failure). fail-closed delivers every body there; a cap
 * checked before the send, off by one, parks the only attempt an attempts
 * limit of 1 allows, which no other property judged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import type { RuleSet } from '../../model/rules.ts';
import presendCapOffByOne from '../../properties/rule-api/presend-cap-off-by-one.ts';
import { steppersFor } from '../check.ts';
import { exploreSmallWorld, smallWorlds, type SmallWorld } from '../small-worlds.ts';
import { HEALTHY_ANSWER } from './events/broker.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from './explore-options.ts';
import { nothingFails } from './nothing-fails.ts';
import { swarmOptions } from './options.ts';
import { outboxSystem } from './outbox-system.ts';

const WORLD = 'nothing fails, attempts 1';

describe('a world where nothing fails', () => {
  it('is one of healthy sizes only: a budget, a fault weight, a setting or an older version makes it another', () => {
    const healthy = { ...EXPLORE_DEFAULTS, crashesMax: 0, healthy: true };
    expect(nothingFails(exploreOptions(healthy), HEALTHY_ANSWER)).toBe(true);
    expect(nothingFails(exploreOptions({ ...healthy, healthy: false }), HEALTHY_ANSWER)).toBe(false);
    expect(nothingFails(exploreOptions({ ...healthy, crashesMax: 1 }), HEALTHY_ANSWER)).toBe(false);
    expect(nothingFails(exploreOptions({ ...healthy, operatorActionsMax: 1 }), HEALTHY_ANSWER)).toBe(false);
    expect(nothingFails(exploreOptions({ ...healthy, skew: true }), HEALTHY_ANSWER)).toBe(false);
    expect(nothingFails(exploreOptions({ ...healthy, settings: { dedupeWindow: 2 } }), HEALTHY_ANSWER)).toBe(false);
    // No seed of the swarm's first thousand draws one: the property is the suite's.
    expect(Array.from({ length: 1000 }, (_, i) => swarmOptions(i + 1)).some((o) => nothingFails(o, HEALTHY_ANSWER))).toBe(false);
  });

  it('offers the healthy answer only, and judges parks there alone', () => {
    const options = exploreOptions({ ...EXPLORE_DEFAULTS, crashesMax: 0, healthy: true });
    const system = outboxSystem(options, { rules: failClosed }, steppersFor(failClosed, null));
    expect(system.properties.map((p) => p.name)).toContain('parked-only-on-failure');
    const plain = outboxSystem(exploreOptions(EXPLORE_DEFAULTS), { rules: failClosed }, steppersFor(failClosed, null));
    expect(plain.properties.map((p) => p.name)).not.toContain('parked-only-on-failure');
  });

  it("finds a cap checked before the send, off by one, in the suite's world; fail-closed delivers there; the cap with attempts 2 sends its first", () => {
    const worlds = smallWorlds(false);
    const i = worlds.findIndex((w) => w.name === WORLD);
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-healthy-'));
    try {
      const run = (rules: RuleSet, w: SmallWorld) => {
        const r = exploreSmallWorld({ rules, rulesOrigin: { source: 'catalog', name: rules.name, hash: null }, oldRules: null, oldRulesOrigin: null }, steppersFor(rules, null), w, i, { outDir: dir, replayCommand: (p) => p, now: () => 0 });
        return [r.violations.map((v) => v.property), r.complete];
      };
      expect(run(presendCapOffByOne, worlds[i])).toEqual([['parked-only-on-failure'], false]);
      expect(run(failClosed, worlds[i])).toEqual([[], true]);
      expect(run(presendCapOffByOne, { ...worlds[i], sizes: { ...worlds[i].sizes, attemptsMax: 2 } })).toEqual([[], true]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
