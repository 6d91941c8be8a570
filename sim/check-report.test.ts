/**
 * The check's report reads its kinds and crash points off the event table:
 * faults, operator actions and healthy events each under their own heading,
 * every counted kind named, and each crash counted once in the matrix.
 */
import { ANSWERS_SAME_AS, type Answer } from './outbox/events/broker.ts';
import { describe, expect, it } from 'vitest';
import { failClosed } from '../model/catalog/index.ts';
import { bodiesLine, idsLine, buildReport, cleanScope, clockLine, layersOf, CRASH_POINTS, deepCyclesLine, deepTail, faultKinds, longLifeLine, renderReport, thresholdsLine } from './check-report.ts';
import { BOUNDS_DEFAULT, runShard } from './check.ts';
import { countedKinds } from './outbox/events/table.ts';
import { PARK_REASONS, STATUSES } from '../model/types.ts';
import queuedInFlight from '../properties/rule-api/queued-in-flight.ts';

const plan = { rules: failClosed, oldRules: null, seedStart: 0, seeds: 800, broker: null, bounds: BOUNDS_DEFAULT };
const merged = runShard(plan, 0, 800);
const report = buildReport(merged, [], { rules: 'fail-closed', oldRules: null, seconds: 1, replayCommand: (p) => p });
const text = renderReport(report);

/** The lines of the section under `title`, up to the next unindented line. */
function section(title: string): string[] {
  const start = text.indexOf(title);
  expect(start).toBeGreaterThanOrEqual(0);
  const out: string[] = [];
  for (const line of text.slice(start + 1)) {
    if (!line.startsWith('  ')) break;
    out.push(line.trim().split(/\s+/)[0]);
  }
  return out;
}

describe('check report', () => {
  it('lists faults, operator actions and healthy events apart, each kind by its name', () => {
    const faults = section('Faults fired (steps):');
    const operator = section('Operator actions (steps):');
    const healthy = section('Healthy events (steps):');
    expect(faults).not.toContain('accept');
    expect(faults).not.toContain('requeue');
    expect(faults).toContain('garbled-unsent');
    expect(operator).toEqual(['requeue', 'requeue-reset', 'resubmit', 'restore', 'sweep']);
    expect(healthy).toContain('accept');
    const named = [...faults, ...operator, ...healthy];
    // An answer the same as another (refuse-ok-false) is listed only when it fired: fail-closed reads ok:false as the 400 it is.
    for (const k of countedKinds().filter((x) => !x.needsOldRules && !ANSWERS_SAME_AS.has(x.name as Answer))) expect(named).toContain(k.name);
    expect(named).not.toContain('refuse-ok-false');
    expect(faultKinds(true)).toContain('fault:upgrade');
    expect(faultKinds(false)).not.toContain('fault:upgrade');
  });

  it('files each crash once in the crash-point matrix (crash@idle only before the publish)', () => {
    expect(CRASH_POINTS.filter((c) => c.before === 'crash@idle' || c.during === 'crash@idle')).toHaveLength(1);
    const filed = report.reached.crashPoints.reduce((n, c) => n + c.before + (c.during ?? 0), 0);
    expect(filed).toBe((merged.tags['fault:crash'] ?? 0) + (merged.tags['fault:crash-in-post'] ?? 0));
    expect(filed).toBeGreaterThan(0);
    const rows = text.slice(text.findIndex((l) => l.startsWith('Crash points')) + 1).filter((l) => l.startsWith('  ')).slice(0, CRASH_POINTS.length);
    expect(rows.filter((l) => l.includes('POST (broker received)'))).toHaveLength(1);
    expect(rows.find((l) => l.includes('POST'))).toMatch(/before, \d+ during$/);
  });

  it('names every status and park reason no run reached (fail-closed writes no QUEUED record)', () => {
    const statuses = Object.keys(report.reached.statuses).map((k) => k.replace(/^reached:/, ''));
    expect(report.reached.statusesNotReached).toContain('QUEUED');
    expect(report.reached.statusesNotReached).toContain('PARKED:retry-window-exhausted');
    // Reached and not reached together are every status and every park reason, each once.
    const all = [...STATUSES, ...PARK_REASONS.map((r) => `PARKED:${r}`)];
    expect([...statuses, ...report.reached.statusesNotReached].sort()).toEqual([...all].sort());
    expect(text).toContain('  not reached: QUEUED; PARKED:retry-window-exhausted (no run had a record in it: nothing was shown about one)');
    // A rule set that writes QUEUED: it is reached, and not named as not reached.
    const queued = buildReport(runShard({ ...plan, rules: queuedInFlight, seeds: 200 }, 0, 200), [], { rules: 'queued-in-flight', oldRules: null, seconds: 1, replayCommand: (p) => p });
    expect(queued.reached.statuses['reached:QUEUED']).toBeGreaterThan(0);
    expect(queued.reached.statusesNotReached).not.toContain('QUEUED');
  });
});

describe('the long life line', () => {
  it('is under the swarm counts, with what the seeds did', () => {
    expect(report.longLife).toEqual(merged.longLife);
    expect(text).toContain(`  ${longLifeLine(merged.longLife ?? { runs: -1, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0, deep: { runs: 0, cycles: 0, steps: 0, ends: {} } })}`);
  });
  it('names every end, a bound hit among them, and the runs left out', () => {
    const line = longLifeLine({ runs: 3, cycles: 4, rounds: 410, steps: 12_500, ends: { violation: 1, 'rounds-bound': 1, 'steps-bound': 1, 'did-not-repeat': 1 }, differed: 2, deep: { runs: 0, cycles: 0, steps: 0, ends: {} } });
    expect(line).toBe(
      'long life: 3 runs brought a record back bigger; 4 cycles sent round again (410 rounds, 12,500 steps): 1 broke a property, 1 could not be taken again, 1 hit the bound of 400 rounds, 1 hit the bound of 12,000 steps; 2 runs ran otherwise when run again (a rule set keeping state between calls?) and were left out',
    );
    expect(longLifeLine({ runs: 0, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0, deep: { runs: 0, cycles: 0, steps: 0, ends: {} } })).toBe('long life: no run brought a record back to a status bigger than it left it');
  });
  it('says what deep cycles did, a bound hit among them', () => {
    const none = { runs: 0, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0 };
    expect(text).toContain(`  ${deepCyclesLine(merged.longLife ?? { ...none, deep: { runs: -1, cycles: 0, steps: 0, ends: {} } })}`);
    expect(deepCyclesLine({ ...none, deep: { runs: 5, cycles: 4, steps: 9_000, ends: { settled: 1, violation: 1, 'did-not-repeat': 1, 'steps-bound': 1 } } })).toBe(
      'deep cycles (one seed in 16, a cycle taken 40 more times, then faults stop at once or after up to 60 more steps): 5 runs, 4 cycles, 9,000 steps: 1 broke a property, 1 settled clean, 1 could not be taken again, 1 hit the bound of 4,000 steps',
    );
    expect(deepCyclesLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {} } })).toBe(
      'deep cycles (one seed in 16, a cycle taken 40 more times, then faults stop at once or after up to 60 more steps): no sampled run brought a record back to a status no bigger than it left it (one back bigger goes to long life)',
    );
    // Cycles toward a threshold of the rule set's (thresholds.ts), and how a violation they found came.
    expect(deepCyclesLine({ ...none, deep: { runs: 3, cycles: 3, steps: 900, ends: { 'below-threshold': 1, settled: 2 }, toward: 2 } })).toBe(
      "deep cycles (one seed in 16, a cycle taken 40 more times, then faults stop at once or after up to 60 more steps): 3 runs, 3 cycles (2 toward a threshold of the rule set's, from any seed, up to 512 rounds then 4 tails), 900 steps: 2 settled clean, 1 still below their threshold after 512 rounds",
    );
    expect(deepTail(6, { field: 'attempts', at: 8, deviated: true })).toBe(" (its attempts past 8, a threshold of the rule set's), then once more with one event taken otherwise (6 steps), then faults stopped");
    expect(deepTail(20, { field: 'attempts', at: 15, deviated: true, crossing: true })).toBe(" (its attempts past 15, a threshold of the rule set's), then the round that brought it there, or the next, taken again with one event taken otherwise (20 steps), then faults stopped");
    expect(deepTail(12, { field: 'resendEpoch', at: 10, deviated: false })).toBe(" (its resendEpoch past 10, a threshold of the rule set's), then 12 more steps of faults before they stopped");
  });
  it('says which thresholds the probe saw, and how far it looked when it saw none (a review read a clean verdict past its range as a proof)', () => {
    const none = { runs: 0, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0 };
    // The catalog's fail-closed, checked above: probed, no threshold.
    expect(merged.longLife?.deep.thresholds).toEqual([]);
    expect(text).toContain('  thresholds: none seen (probed: values 0-64 of each number of a record one by one and up to 512 by halving, in decisions asked in seeds 1-32); a rule acting past a larger value meets only deep cycles\' 40 rounds');
    expect(thresholdsLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {}, thresholds: [{ field: 'attempts', at: 8 }, { field: 'resendEpoch', at: 10 }] } })).toBe(
      'thresholds: the rule set answers otherwise from attempts 8, resendEpoch 10 (probed: values 0-64 of each number of a record one by one and up to 512 by halving, in decisions asked in seeds 1-32); runs counting one up go deep toward it; one seed in two whose drawn attempts limit does not pass attempts 8 takes a limit 2 past it',
    );
    expect(thresholdsLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {}, thresholds: [{ field: 'resendEpoch', at: 10 }] } })).toBe(
      'thresholds: the rule set answers otherwise from resendEpoch 10 (probed: values 0-64 of each number of a record one by one and up to 512 by halving, in decisions asked in seeds 1-32); runs counting one up go deep toward it',
    );
    // No probe ran (a shard file written before it): no line.
    expect(thresholdsLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {} } })).toBeNull();
  });
  it('says which body shapes the runs wrote besides one letter (a rule acting on a body\'s content meets only them)', () => {
    expect(text.find((l) => l.startsWith('  bodies written '))).toMatch(/^ {2}bodies written [\d,]+ \(besides one letter: astral in [\d,]+ runs, combining in [\d,]+ runs, control in [\d,]+ runs, large in [\d,]+ runs\); ids of a shape: accent in [\d,]+ runs, case in [\d,]+ runs, prefix in [\d,]+ runs, space in [\d,]+ runs; records read/);
    expect(layersOf({ 'layer:written': 3, 'bodies:large': 2 }).bodyShapes).toEqual({ large: 2 });
    expect(layersOf({ 'layer:written': 3, 'ids:space': 2 }).idShapes).toEqual({ space: 2 });
  });
  it('says where the clock changes an answer, with the wall-clock time a decision reads there, and how the probe looked when nowhere', () => {
    const none = { runs: 0, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0 };
    const probed = 'probed: every 900,000 ticks to 172,800,000, every 21,600,000 to 2,000,000,000, doubling to 1,000,000,000,000, a change placed to the tick';
    expect(merged.longLife?.deep.clock).toEqual({ instants: [], waits: [] });
    expect(text).toContain(`  clock: no decision answers otherwise as time passes (${probed})`);
    expect(clockLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {}, clock: { instants: [13_600_000], waits: [604_800_000] } } })).toBe(
      `clock: decisions answer otherwise at tick 13,600,000 (2023-11-15T02:00:00Z); and 604,800,000 ticks after a record's time (${probed}); one seed in two with a clock waits there`,
    );
    expect(clockLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {} } })).toBeNull();
  });
  it('says which body sizes and characters change an answer, and how the probe looked when none', () => {
    const none = { runs: 0, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0 };
    const probed = "probed: bodies of 2 to 1,048,577 characters, a change placed to the character, bodies astral, combining and control, and a new body that differs from the record's only by letter case, an accent's normal form, a trailing space or CR LF against LF, or whose digest shares its first 6 hex digits with the record's, in the decisions and in the envelope: its body as read back and its other fields, such as the key";
    expect(merged.longLife?.deep.bodies).toEqual([]);
    expect(text).toContain(`  bodies: no decision nor envelope answers otherwise on a body's size or characters (${probed})`);
    expect(bodiesLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {}, bodies: ['large:262145', 'control'] } }, true)).toBe(
      `bodies: decisions or the envelope answer otherwise on bodies from 262,145 characters, control (with control and markup characters, a trailing space) (${probed}); one seed in four takes such bodies, and the small worlds search the default world with each, and two ids named alike with one such body`,
    );
    expect(bodiesLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {}, bodies: ['astral'] } }, false)).toMatch(/one seed in four takes such bodies$/);
    expect(bodiesLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {} } }, true)).toBeNull();
  });
  it('says which id shapes a decision folds, and what the probe asked when none', () => {
    const none = { runs: 0, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0 };
    const probed = 'probed: the envelope, admit, selectable and sweepable, for ids case, accent, space and prefix';
    expect(merged.longLife?.deep.ids).toEqual([]);
    expect(text).toContain(`  ids: no decision folds two ids that differ only by case, normalisation, a trailing space or past their 199th character, nor two of 5,000 plain ids order-0 to order-4999 in one cycle's envelope, nor order-0 to order-999 requeued up to 16 times against them (${probed})`);
    expect(idsLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {}, ids: ['case', 'space'] } }, true)).toBe(
      `ids: decisions fold ids case (Order-17 and order-17, differing only in case), space (order-17 and "order-17 ", differing only by a trailing space) (${probed}); one seed in four of two ids takes such ids, and the small worlds search the world of 2 ids named alike with each`,
    );
    expect(idsLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {}, ids: ['accent'] } }, false)).toMatch(/^ids: decisions fold ids accent \("cafe\\u\{301\}-17" and "caf\\u\{E9\}-17", .*one seed in four of two ids takes such ids$/);
    expect(idsLine({ ...none, deep: { runs: 0, cycles: 0, steps: 0, ends: {} } }, true)).toBeNull();
  });
});

describe('the runs ended line', () => {
  it('says how many runs broke a property only once a cycle was sent round again (RESULT counts them with the rest)', () => {
    expect(text.join('\n')).toMatch(/^Runs ended: [^;]*$/m);
    const base = report.longLife ?? { runs: 0, cycles: 0, rounds: 0, steps: 0, ends: {}, differed: 0, deep: { runs: 0, cycles: 0, steps: 0, ends: {} } };
    const later = renderReport({ ...report, longLife: { ...base, ends: { violation: 2 }, deep: { ...base.deep, ends: { violation: 1 } } } });
    expect(later.join('\n')).toMatch(/^Runs ended: .*; 3 more broke a property once a cycle of theirs was sent round again \(long life and deep cycles, above\)$/m);
  });
});

describe('a clean result', () => {
  it('says what it covers, the decisions asked among it, and where what the world cannot produce is listed', () => {
    const at = text.indexOf('RESULT: no property violated');
    expect(text.slice(at + 1, at + 3)).toEqual(cleanScope(true));
    expect(cleanScope(true).join(' ')).toContain('Rule decisions asked');
    expect(text.some((l) => l.startsWith('Rule decisions asked'))).toBe(true);
    // Without the swarm's counts (the small worlds alone, shard files of an older version) no decision is named.
    expect(cleanScope(false).join(' ')).not.toContain('decision');
    for (const lines of [cleanScope(true), cleanScope(false)]) {
      expect(lines.join(' ')).toContain("docs/faults.md, 'Not in the menu today'");
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(120);
    }
  });
});
