/**
 * Where the clock matters to a rule set (thresholds.ts, probeClock): its
 * decisions, as asked in real runs, asked again with the clock at every
 * quarter of an hour over two days and every six hours to the swarm's
 * horizon. An instant (a window of the day) becomes the tick a seed's long
 * waits may go to; a wait after a record's time (a retention period from a
 * delivery stamp) the length of its long waits. A flaw that needs the clock
 * at such a place, which random waits meet only by chance, is then found
 * within check's default seeds.
 */
import { describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import presendSkippedNightly from '../../properties/rule-api/presend-skipped-nightly.ts';
import retentionAfterDays, { KEEP_FOR } from '../../properties/rule-api/retention-after-days.ts';
import { BOUNDS_DEFAULT, fixedOptions, planThresholds, runShard, type CheckPlan } from '../check.ts';
import type { RulesPair } from './record-trace.ts';
import { hasClock } from './events/clock.ts';
import { swarmOptions } from './options.ts';
import { withClockMarks } from './thresholds.ts';
import { exploreOptions } from './explore-options.ts';
import { exploreOutbox } from './explore-outbox.ts';
import { exploreSmallWorld, smallWorlds, suiteOptions } from '../small-worlds.ts';
import { steppersFor } from '../check.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** fail-closed that writes no pre-send mark during the 07:00 UTC hour (a maintenance window): a send cut then leaves no evidence, and a refusal parks over a stored body. */
const maintenanceWindow: RuleSet = extendRules(failClosed, {
  name: 'maintenance-window',
  summary: 'fail-closed that writes no pre-send mark during the 07:00 UTC hour.',
  preSend: (record, view) => (Math.floor(((view?.now ?? 0) % DAY) / HOUR) === 7 ? { ...record } : failClosed.preSend(record, view)),
});

/** fail-closed whose retention deletes a record three days after its delivery: a newer body for the id then reads as new. */
const staleSweep: RuleSet = extendRules(failClosed, {
  name: 'stale-sweep',
  summary: 'fail-closed whose retention deletes a record three days after its delivery.',
  retention: 'delete',
  complete: (record, outcome, limits, view) => failClosed.complete(record, outcome, limits, view).map((r) => (r.status === 'DELIVERED' ? { ...r, deliveredAt: view?.now ?? 0 } : r)),
  sweepable: (record, view) => record.status === 'DELIVERED' && typeof record.deliveredAt === 'number' && view.now - record.deliveredAt >= 3 * DAY,
});

/**
 * fail-closed with a reaper of stale in-flight marks (a blind review's): the
 * pre-send write stamps the mark's time, and a mark older than `days` is
 * taken for a send that never left (sent again as a first one, nothing
 * unknown). A crash after the broker stored the POST leaves the same mark:
 * the resend's refusal parks `permanent-refusal` over a stored body.
 */
const reaper = (days: number): RuleSet =>
  extendRules(failClosed, {
    name: `stale-reaper-${days}d`,
    summary: `fail-closed that takes an in-flight mark older than ${days} days for a send that never left.`,
    preSend: (record, view) => {
      const now = view?.now ?? 0;
      const at = typeof record.inFlightAt === 'number' ? record.inFlightAt : null;
      if (record.inFlight === true && at !== null && now - at > days * DAY) return { ...record, inFlight: true, inFlightAt: now };
      const written = failClosed.preSend(record, view) ?? record;
      return written.status === 'PARKED' ? written : { ...written, inFlightAt: now };
    },
  });

/** The first seed at which the default check breaks both reapers (none of 5,000 did before the probe asked stamped records, nor past the horizon). */
const REAPER_AT = 1840;

/** The clock's origin reads 22:13:20 UTC: 07:00 is 8 h 46 min 40 s later. */
const SEVEN = 8 * HOUR + 46 * 60_000 + 40_000;

/** The first seed at which `check --rules` breaks each (seeds 1..5000; neither before the clock's probe). */
const WINDOW_AT = 1192;
const STALE_AT = 1043;

const plan = (rules: RuleSet): CheckPlan => ({ rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT });
const clockOf = (rules: RuleSet) => planThresholds(plan(rules), fixedOptions(plan(rules))).clock;

describe('the clock probe', () => {
  it('finds a window of the day as instants, a period after a stamp as a wait, and nothing in fail-closed', () => {
    expect(clockOf(maintenanceWindow)).toEqual({ instants: [SEVEN, SEVEN + HOUR, SEVEN + DAY, SEVEN + DAY + HOUR], waits: [] });
    expect(clockOf(staleSweep)).toEqual({ instants: [], waits: [3 * DAY] });
    expect(clockOf(failClosed)).toEqual({ instants: [], waits: [] });
    // The repository's two rule files of the kind: half an hour from 01:30 UTC (3 h 16 min 40 s after the origin), and two days after a delivery.
    const half = 11_800_000;
    expect(clockOf(presendSkippedNightly)).toEqual({ instants: [half, half + HOUR / 2, half + DAY, half + DAY + HOUR / 2], waits: [] });
    expect(clockOf(retentionAfterDays)).toEqual({ instants: [], waits: [KEEP_FOR] });
  });

  it('sees a wait after a stamp written beside a flag (the records of the body probe), also past the horizon, and finds the reaper it steers to', () => {
    expect(clockOf(reaper(20))).toEqual({ instants: [], waits: [20 * DAY + 1] });
    // 90 days: past the swarm's horizon (tick 2,000,000,000), in the far stretch.
    expect(clockOf(reaper(90))).toEqual({ instants: [], waits: [90 * DAY + 1] });
    for (const days of [20, 90]) {
      const upgrade: CheckPlan = { ...plan(reaper(days)), oldRules: failClosed, skewDrawn: true, seedStart: REAPER_AT, seeds: 1 };
      const steered = runShard(upgrade, REAPER_AT, REAPER_AT + 1);
      const unsteered = runShard({ ...upgrade, thresholds: false }, REAPER_AT, REAPER_AT + 1);
      expect([Object.keys(steered.violatedRuns), Object.keys(unsteered.violatedRuns)]).toEqual([['honest-park'], []]);
    }
  });

  it('steers one seed in two of those with a clock, from a stream of its own, and moves nothing else', () => {
    const marks = { instants: [SEVEN], waits: [3 * DAY] };
    let clocked = 0;
    const steered = { waitTo: 0, jump: 0 };
    for (let seed = 1; seed <= 800; seed++) {
      const o = swarmOptions(seed);
      const s = withClockMarks(o, seed, marks);
      if (!hasClock(o)) {
        expect(s).toBe(o);
        continue;
      }
      clocked++;
      if (s.waitTo !== undefined) {
        expect([s.waitTo, { ...s, waitTo: undefined }]).toEqual([SEVEN, o]);
        steered.waitTo++;
      } else if (s.settings?.jump !== o.settings?.jump) {
        expect([s.settings?.jump, { ...s, settings: o.settings }]).toEqual([3 * DAY, o]);
        steered.jump++;
      } else expect(s).toBe(o);
      // A seed's instant already drawn (a trace's options) stays; a --jump the user gave is never replaced by a wait.
      expect(withClockMarks({ ...o, waitTo: 5 }, seed, marks).waitTo).toBe(5);
      expect(withClockMarks(o, seed, marks, true).settings?.jump).toBe(o.settings?.jump);
    }
    const share = (steered.waitTo + steered.jump) / clocked;
    expect([share > 0.4 && share < 0.6, steered.waitTo > 0.2 * clocked, steered.jump > 0.2 * clocked]).toEqual([true, true, true]);
  });

  it('leads a seed to a flaw in a window of the day, and to one a period after a stamp, which it missed without', () => {
    for (const [rules, seed, property] of [
      [maintenanceWindow, WINDOW_AT, 'honest-park'],
      [staleSweep, STALE_AT, 'no-phantom-delivery'],
    ] as const) {
      const steered = runShard({ ...plan(rules), seedStart: seed, seeds: 1 }, seed, seed + 1);
      const unsteered = runShard({ ...plan(rules), seedStart: seed, seeds: 1, thresholds: false }, seed, seed + 1);
      expect([rules.name, Object.keys(steered.violatedRuns), Object.keys(unsteered.violatedRuns)]).toEqual([rules.name, [property], []]);
      // The trace's options carry the steering, so that a replay runs it again.
      const options = steered.first[property]?.options;
      const mark = rules === maintenanceWindow ? [SEVEN, SEVEN + HOUR, SEVEN + DAY, SEVEN + DAY + HOUR].includes(options?.waitTo ?? -1) : options?.settings?.jump === 3 * DAY;
      expect([rules.name, mark]).toEqual([rules.name, true]);
    }
  });

  it('gives a small world with a clock a wait to the first instant, and the skewed one then holds the window\'s flaw, which it did not without', () => {
    const worlds = smallWorlds(true, { broker: null }, true);
    const clocked = worlds.filter((w) => (w.sizes.settings?.ticks ?? 0) > 0);
    const skewedClock = clocked.find((w) => w.sizes.skew);
    expect([clocked.length, skewedClock !== undefined]).toEqual([2, true]);
    for (const w of worlds) {
      expect(suiteOptions(w, failClosed)).toEqual(exploreOptions(w.sizes));
      expect(suiteOptions(w, maintenanceWindow)).toEqual(clocked.includes(w) ? { ...exploreOptions(w.sizes), waitTo: SEVEN } : exploreOptions(w.sizes));
    }
    if (skewedClock === undefined) return;
    const pair: RulesPair = { rules: maintenanceWindow, rulesOrigin: { source: 'catalog', name: maintenanceWindow.name, hash: null }, oldRules: failClosed, oldRulesOrigin: { source: 'catalog', name: 'fail-closed', hash: null } };
    const steppers = steppersFor(maintenanceWindow, failClosed);
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-clock-'));
    try {
      const found = exploreSmallWorld(pair, steppers, skewedClock, 0, { outDir: dir, replayCommand: (p) => p, now: () => 0 });
      expect(found.violations.map((v) => v.property)).toEqual(['honest-park']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const without = exploreOutbox(exploreOptions(skewedClock.sizes), { rules: maintenanceWindow, oldRules: failClosed }, steppers, { statesMax: 1_000_000, liveness: true, stopAtFirst: true, symmetry: true });
    expect([without.complete, without.violations.length]).toEqual([true, 0]);
  });
});
