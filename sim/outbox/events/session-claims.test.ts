/**
 * Claims bound to their holder's session (`--session-claims`, faults.ts): a
 * dead engine's claim reads as free to every decision that sees claims, as
 * a row lock does once its holder's connection drops. A rule that takes "no
 * lock" for "nothing in flight" is found in the suite's world of session
 * claims, and in no world where a dead engine's claim stays held;
 * fail-closed holds in both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import failClosed from '../../../model/catalog/fail-closed.ts';
import resubmitClearsUnlocked from '../../../properties/rule-api/resubmit-clears-unlocked.ts';
import { steppersFor } from '../../check.ts';
import { exploreSmallWorld, smallWorlds, type SmallWorld } from '../../small-worlds.ts';
import type { RulesPair } from '../record-trace.ts';
import { claimView } from './context.ts';
import { SESSION_CLAIMS } from './faults.ts';
import type { World } from '../world.ts';

const WORLD = '1 engine, 1 body, 1 operator action, broker id-409, session claims';

describe('session claims', () => {
  it("read a dead holder's claim as free, a live holder's as held", () => {
    const w = { claims: { a: { kind: 'held', owner: 1 } }, engines: [{ pid: 2 }] } as unknown as World;
    expect([claimView(w, 'a', 2), claimView(w, 'a', 2, true)]).toEqual([{ kind: 'held', mine: false, ownerAlive: false }, { kind: 'free' }]);
    const alive = { ...w, engines: [{ pid: 1 }, { pid: 2 }] } as unknown as World;
    expect(claimView(alive, 'a', 2, true)).toEqual({ kind: 'held', mine: false, ownerAlive: true });
  });

  it('find a resubmit that clears the in-flight mark when no claim is held, only where claims go with their holder', () => {
    const worlds = smallWorlds(false);
    const i = worlds.findIndex((w) => w.name === WORLD);
    expect(worlds[i].sizes.settings).toEqual({ [SESSION_CLAIMS]: 1 });
    const without: SmallWorld = { ...worlds[i], name: 'the same, claims kept by a dead holder', sizes: { ...worlds[i].sizes, settings: { [SESSION_CLAIMS]: 0 } } };
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-session-'));
    try {
      const run = (rules: typeof failClosed, w: SmallWorld) => {
        const pair: RulesPair = { rules, rulesOrigin: { source: 'catalog', name: rules.name, hash: null }, oldRules: null, oldRulesOrigin: null };
        const r = exploreSmallWorld(pair, steppersFor(rules, null), w, i, { outDir: dir, replayCommand: (p) => p, now: () => 0 });
        return [r.violations.map((v) => v.property), r.complete];
      };
      expect(run(resubmitClearsUnlocked, worlds[i])).toEqual([['honest-park'], false]);
      expect(run(resubmitClearsUnlocked, without)).toEqual([[], true]);
      expect([run(failClosed, worlds[i]), run(failClosed, without)]).toEqual([[[], true], [[], true]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
