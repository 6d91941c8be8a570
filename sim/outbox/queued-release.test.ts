/**
 * The older release that writes QUEUED in flight (queued-release.ts) and
 * the status probe (status-probe.ts): a rule set that reads a QUEUED record
 * otherwise than a READY one is searched beside such a release, which the
 * catalog's rule sets are not; the flaw of a migration off it (a QUEUED
 * record taken for an abandoned send) is found there, and nowhere else in
 * the suite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import freshCycle from '../../model/catalog/fresh-cycle.ts';
import { freshRecord } from '../../model/record.ts';
import type { OutboxRecord } from '../../model/types.ts';
import queuedRebuiltFresh from '../../properties/rule-api/queued-rebuilt-fresh.ts';
import queuedStranded from '../../properties/rule-api/queued-stranded.ts';
import queuedInFlight from '../../properties/rule-api/queued-in-flight.ts';
import { BOUNDS_DEFAULT, seedBounds, steppersFor } from '../check.ts';
import { runSeedFast } from '../core/fast-run.ts';
import { swarmOptions } from './options.ts';
import { outboxSystem } from './outbox-system.ts';
import { exploreSmallWorld, probedWorlds, suiteQueued, type SmallWorld } from '../small-worlds.ts';
import { OLD_WRITES_QUEUED } from './events/process.ts';
import { queuedRelease } from './queued-release.ts';
import type { RulesPair } from './record-trace.ts';

const record: OutboxRecord = freshRecord('A', 0);

const pairOf = (rules: typeof failClosed): RulesPair => ({ rules, rulesOrigin: { source: 'catalog', name: rules.name, hash: null }, oldRules: failClosed, oldRulesOrigin: { source: 'catalog', name: 'fail-closed', hash: null } });

describe('the older release that writes QUEUED in flight', () => {
  it("writes QUEUED where its rule set's pre-send write is READY, and decides everything else as it does (one object per rule set)", () => {
    const q = queuedRelease(failClosed);
    expect(queuedRelease(failClosed)).toBe(q);
    const plain = failClosed.preSend(record);
    expect(plain?.status).toBe('READY');
    expect(q.preSend(record)).toEqual({ ...plain, status: 'QUEUED' });
    expect([q.name, q.admit, q.complete, q.envelope]).toEqual([failClosed.name, failClosed.admit, failClosed.complete, failClosed.envelope]);
  });

  it('runs the old engines of a seed with the setting: QUEUED is reached only there, and fail-closed beside it stays clean', () => {
    const steppers = steppersFor(failClosed, failClosed);
    const runs = (on: 0 | 1) => {
      let queued = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const options = swarmOptions(seed, { skew: true, settings: { [OLD_WRITES_QUEUED]: on } });
        const r = runSeedFast(outboxSystem(options, { rules: failClosed, oldRules: failClosed }, steppers), seed, seedBounds(BOUNDS_DEFAULT, options));
        expect(r.violation).toBeNull();
        if (r.reached.includes('reached:QUEUED')) queued++;
      }
      return queued;
    };
    const [off, on] = [runs(0), runs(1)];
    expect(off).toBe(0);
    expect(on).toBeGreaterThan(50);
  });
});

describe('the status probe', () => {
  it('sees a rule set that reads QUEUED apart from READY, not one that reads them alike or only writes QUEUED', () => {
    expect([failClosed, freshCycle, queuedInFlight].map(suiteQueued)).toEqual([false, false, false]);
    expect([queuedRebuiltFresh, queuedStranded].map(suiteQueued)).toEqual([true, true]);
  });

  it("searches the first skewed world again beside the release writing QUEUED, right after the default world: it holds the migration's flaw, its twin does not", () => {
    const worlds = probedWorlds(pairOf(queuedRebuiltFresh), { broker: null }, true);
    const twin = 'skew, old version writes QUEUED';
    expect(worlds.slice(0, 2).map((w) => w.name)).toEqual(['default', twin]);
    expect(worlds[1].sizes.settings).toEqual({ [OLD_WRITES_QUEUED]: 1 });
    // fail-closed reads QUEUED as READY: no twin; nor without an older version.
    expect(probedWorlds(pairOf(failClosed), { broker: null }, true).some((w) => w.name === twin)).toBe(false);
    expect(probedWorlds({ rules: queuedRebuiltFresh, oldRules: null }).some((w) => w.name === twin)).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-queued-'));
    try {
      const run = (w: SmallWorld, i: number) => exploreSmallWorld(pairOf(queuedRebuiltFresh), steppersFor(queuedRebuiltFresh, failClosed), w, i, { outDir: dir, replayCommand: (p) => p, now: () => 0 }).violations.map((v) => v.property);
      expect(run(worlds[1], 1)).toEqual(['no-phantom-delivery']);
      const skew = worlds.findIndex((w) => w.name === 'skew');
      expect(run(worlds[skew], skew)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
