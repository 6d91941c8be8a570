/**
 * check explores a suite of small worlds completely before its swarm
 * (issue 21): what the suite holds, that a flawed rule set's violation in a
 * small world is written as a trace that replays, and the CLI's halves
 * (`--swarm-only`, `--small-worlds-only`) and their report.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckReport } from './check-report.ts';
import { rulesPair } from './cli/check-command.ts';
import { main } from './cli/main.ts';
import { EXPLORE_DEFAULTS } from './outbox/explore-options.ts';
import { exploreSmallWorld, exploreSuite, smallWorlds, threadOrder, type SmallWorldResult } from './small-worlds.ts';
import { runCheckJob } from './workers/check-job.ts';
import { renderSmallWorlds, smallWorldsReport } from './small-worlds-report.ts';
import { buildReport, renderReport } from './check-report.ts';
import { emptyShard, steppersFor } from './check.ts';
import { exploreOptions } from './outbox/explore-options.ts';
import { exploreOutbox } from './outbox/explore-outbox.ts';
import { clearInterrupt } from './interrupt.ts';
import failClosed from '../model/catalog/fail-closed.ts';
import { extendRules } from '../model/rules.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'small-worlds-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
  return { code, out: out.join('\n'), err };
}

let clock = 0;
const now = () => clock++;

describe('the suite', () => {
  it('on one version: the default world first, every broker mode, more attempts and crashes, two ids, operator actions (6 in one world), a corruption, a forgetful broker', () => {
    const worlds = smallWorlds(false);
    expect(worlds[0]).toEqual({ name: 'default', sizes: { ...EXPLORE_DEFAULTS, skew: false } });
    expect(new Set(worlds.map((w) => w.sizes.broker))).toEqual(new Set(['id-ok', 'id-409', 'key', 'none', 'log']));
    expect(worlds.every((w) => !w.sizes.skew)).toBe(true);
    expect(Math.max(...worlds.map((w) => w.sizes.operatorActionsMax))).toBeGreaterThanOrEqual(6);
    expect(worlds.some((w) => w.sizes.corruptionsMax > 0)).toBe(true);
    expect(worlds.some((w) => w.sizes.ids === 2)).toBe(true);
    expect(worlds.some((w) => w.sizes.attemptsMax === 3 && w.sizes.crashesMax === 2)).toBe(true);
    expect(worlds.some((w) => (w.sizes.settings?.dedupeWindow ?? 0) > 0)).toBe(true);
  });
  it('under skew, ids named alike as the one-version world has them: a key the two versions cut apart from such ids is found there, and only with both versions', () => {
    // A key that drops the id's region prefix (a blind review's change): on one letter nothing is cut.
    const stripped = extendRules(failClosed, {
      name: 'key-region-stripped',
      summary: 'fail-closed whose key drops a leading region prefix of the id.',
      envelope: (id, record) => ({ ...failClosed.envelope(id, record), key: `${id.replace(/^[a-z]{2}-[a-z]+-\d+\./, '')}#${record.resendEpoch}` }),
    });
    const name = 'skew, 2 ids named alike, the same body, 1 engine, no crash, broker key';
    const skewed = smallWorlds(true, { broker: null }, true).find((w) => w.name === name);
    const alone = smallWorlds(false).find((w) => w.name === name.slice('skew, '.length));
    expect([skewed?.sizes.longIds, alone?.sizes.longIds]).toEqual([true, true]);
    if (skewed === undefined || alone === undefined) return;
    const found = (sizes: typeof skewed.sizes) =>
      exploreOutbox(exploreOptions(sizes), { rules: stripped, ...(sizes.skew ? { oldRules: failClosed } : {}) }, steppersFor(stripped, failClosed), { statesMax: 1_000_000, liveness: true, stopAtFirst: true, symmetry: true }).violations.map((v) => v.violation.property);
    expect([found(skewed.sizes), found(alone.sizes)]).toEqual([['retries-deduped'], []]);
  });
  it('in the order that finds a typical flaw soonest: the default world, the corruption, the cheap broker modes; the costliest world (6 operator actions) last', () => {
    const names = smallWorlds(false).map((w) => w.name);
    expect(names.slice(0, 3)).toEqual(['default', '1 corruption, no crash', 'broker id-409']);
    expect(names[names.length - 1]).toBe('1 engine, 1 body, attempts 1, no crash, 6 operator actions');
  });
  it('with old rules, skewed worlds first (an operator action, 3 engines, each dedupe answer), then the one-version worlds', () => {
    const worlds = smallWorlds(true);
    const skewed = worlds.filter((w) => w.sizes.skew);
    expect(worlds.slice(0, skewed.length).every((w) => w.sizes.skew)).toBe(true);
    expect(skewed.some((w) => w.sizes.operatorActionsMax > 0)).toBe(true);
    expect(skewed.some((w) => w.sizes.engines === 3)).toBe(true);
    expect(new Set(skewed.map((w) => w.sizes.broker))).toEqual(new Set(['id-ok', 'id-409', 'key']));
    expect(worlds.length - skewed.length).toBe(smallWorlds(false).length);
  });
  it('a fixed broker mode or dedupe window replaces each world\'s own; worlds that then coincide are searched once', () => {
    const worlds = smallWorlds(false, { broker: 'key', settings: { dedupeWindow: 0 } });
    expect(worlds.every((w) => w.sizes.broker === 'key' && w.sizes.settings?.dedupeWindow === 0)).toBe(true);
    expect(new Set(worlds.map((w) => JSON.stringify(w.sizes))).size).toBe(worlds.length);
    expect(worlds.length).toBeLessThan(smallWorlds(false).length);
  });
  it('a world whose own setting or broker a flag changes says so in its name; the others keep theirs', () => {
    const clockless = smallWorlds(false, { broker: null, settings: { ticks: 0 } }).map((w) => w.name);
    expect(clockless).toContain('1 body, no crash, clock to tick 2, lease 1, long waits, but no clock (as the command line gave)');
    expect(clockless).toContain('default');
    const keyed = smallWorlds(false, { broker: 'id-ok' }).map((w) => w.name);
    expect(keyed).toContain('1 engine, attempts 3, crashes 2, broker key, but broker id-ok (as the command line gave)');
    // The world "broker id-409" is then the default world, searched once under that name.
    expect(keyed.some((n) => n.startsWith('broker id-409'))).toBe(false);
  });
});

describe('a violation in a small world', () => {
  it('is the shortest trace of the world, written so that it replays (the old-version flaw needs the skewed world)', async () => {
    // fail-closed beside an older engine that drops the fields it does not know (record-schema.test.ts).
    // (stamp-version.ts served here until a PARKED pre-send write was no longer POSTed: it is clean now.)
    const old = 'properties/rule-api/flags-old-drops.ts';
    const pair = await rulesPair('fail-closed', old);
    const [skew] = smallWorlds(true);
    const out = join(tmp, 'suite');
    const [r] = exploreSuite(pair, [skew], { outDir: out, replayCommand: (p) => p, now });
    expect(r.name).toBe('skew');
    expect(r.violations.map((v) => v.property)).toEqual(['honest-park']);
    expect(r.stoppedBy).toBe('violation');
    const replay = await run('replay', r.violations[0].path, '--rules', 'fail-closed', '--old-rules', old);
    expect(replay.err).toEqual([]);
    expect(replay.code).toBe(0);
    // The same rule set on one version is clean in the default world: the flaw is the skew's.
    const [alone] = exploreSuite(pair, [smallWorlds(false)[0]], { outDir: out, replayCommand: (p) => p, now });
    expect([alone.complete, alone.violations]).toEqual([true, []]);
  });
  it('says why symmetry was off: stamping who.pid turns it off, and the world\'s result says so (check --json, the suite\'s table)', async () => {
    const pair = await rulesPair('properties/rule-api/stamp-version.ts', undefined);
    const [r] = exploreSuite(pair, [smallWorlds(false)[0]], { outDir: join(tmp, 'suite'), replayCommand: (p) => p, now });
    expect([r.complete, r.violations]).toEqual([true, []]);
    expect(r.symmetryOff).toMatch(/reads an engine's pid \(who\.pid/);
  });
});

describe('a lasso near the start of a suite world', () => {
  /**
   * The suite's searches keep the look-ahead (LOOK_AHEAD_STATES): it costs
   * the suite 3 to 4% of its instructions, and without it the first answer
   * of these flaws comes thousands of states later, or is another property
   * (docs/performance.md, 'What checking liveness costs').
   */
  it('is answered from the first states: retry-past-cap and unclassified-not-counted stop at state 3 of the default world with quiet-after-healing', async () => {
    const [world] = smallWorlds(false);
    for (const rules of ['properties/mutants/retry-past-cap.ts', 'properties/mutants/unclassified-not-counted.ts']) {
      const pair = await rulesPair(rules, undefined);
      const [r] = exploreSuite(pair, [world], { outDir: join(tmp, 'lasso'), replayCommand: (p) => p, now });
      expect([rules, r.states, r.stoppedBy, r.violations.map((v) => v.property)]).toEqual([rules, 3, 'violation', ['quiet-after-healing']]);
    }
  });
  it('without the look-ahead, the same searches answer late (retry-past-cap) or answer another property first (unclassified-not-counted)', async () => {
    const options = exploreOptions(smallWorlds(false)[0].sizes);
    const search = async (rules: string) => {
      const pair = await rulesPair(rules, undefined);
      const r = exploreOutbox(options, { rules: pair.rules }, steppersFor(pair.rules, null), { statesMax: 1_000_000, liveness: true, stopAtFirst: true, symmetry: true, lookAhead: 0 });
      return [r.states, r.violations.map((v) => v.violation.property)];
    };
    expect(await search('properties/mutants/retry-past-cap.ts')).toEqual([5_869, ['quiet-after-healing']]);
    expect(await search('properties/mutants/unclassified-not-counted.ts')).toEqual([1_997, ['honest-park']]);
  });
});

describe('symmetry reduction in the suite', () => {
  it('each world stores one state per class of states equal up to renaming pids (the default world: 6,581 states, not 17,611); symmetry false stores every state, the same verdict', async () => {
    const pair = await rulesPair('fail-closed', undefined);
    const [world] = smallWorlds(false);
    const run = { outDir: join(tmp, 'sym'), replayCommand: (p: string) => p, now };
    const [on] = exploreSuite(pair, [world], run);
    const [off] = exploreSuite(pair, [world], { ...run, symmetry: false });
    expect([on.states, on.symmetry, on.complete, on.violations]).toEqual([6_581, true, true, []]);
    expect([off.states, off.symmetry, off.complete, off.violations]).toEqual([17_611, false, true, []]);
  });
  it('check --no-symmetry searches the small worlds without it (the same world, more states)', async () => {
    const argv = ['check', '--rules', 'fresh-cycle-after-definite', '--small-worlds-only', '--stop-on-first', '--json'];
    const on = JSON.parse((await run(...argv, '--out', join(tmp, 'sym-on'))).out) as CheckReport;
    const off = JSON.parse((await run(...argv, '--no-symmetry', '--out', join(tmp, 'sym-off'))).out) as CheckReport;
    const [a] = on.smallWorlds?.worlds ?? [];
    const [b] = off.smallWorlds?.worlds ?? [];
    expect([a.name, a.symmetry, a.violations[0].property]).toEqual(['default', true, 'honest-park']);
    expect([b.name, b.symmetry, b.violations[0].property]).toEqual(['default', false, 'honest-park']);
  });
});

describe('the summary', () => {
  const world = (name: string, violated: boolean): SmallWorldResult => ({
    name,
    sizes: { ...EXPLORE_DEFAULTS, skew: false },
    states: 100,
    complete: !violated,
    stoppedBy: violated ? 'violation' : null,
    seconds: 0.5,
    symmetry: true,
    violations: violated ? [{ property: 'no-silent-loss', detail: 'a=A is gone', trace: 'abc', path: 'traces/found/abc.trace.jsonl', steps: 9, replay: 'npx outbox-sim replay traces/found/abc.trace.jsonl' }] : [],
  });
  it('counts a violation found only in a small world: not "no property violated", with its trace and replay; the other worlds that hold it are named', () => {
    const sw = smallWorldsReport([world('default', true), world('broker key', true), world('broker log', false)], 1.5, 3);
    const report = buildReport(emptyShard(), [], { rules: 'r', oldRules: null, seconds: 2, replayCommand: (p) => p, smallWorlds: sw, swarm: true, coverage: null });
    expect(report.ok).toBe(false);
    const text = renderReport(report);
    expect(text).toContain('RESULT: 1 property violated (1 in the small worlds, 0 in the swarm)');
    expect(text).toContain('    replay: npx outbox-sim replay traces/found/abc.trace.jsonl');
    expect(text).toContain('    also in 1 other small world: broker key');
    expect(text.some((l) => /^ {2}broker log +100 states +0\.5 s {2}complete, no violation$/.test(l))).toBe(true);
  });
  it('an upgrade checked by default says how many skewed worlds ran, and only in part when the suite\'s bound cut some of them', () => {
    const skewed = (name: string, complete = true) => ({ ...world(name, false), sizes: { ...EXPLORE_DEFAULTS, skew: true }, complete, stoppedBy: complete ? null : 'max-states' });
    const lines = (worlds: SmallWorldResult[], planned: number) =>
      renderReport({ ...buildReport(emptyShard(), [], { rules: 'r', oldRules: null, seconds: 2, replayCommand: (p) => p, smallWorlds: smallWorldsReport(worlds, 1, planned), swarm: false, coverage: null }), upgrade: { from: 'fail-closed', checked: true, worlds: 3, command: 'npx outbox-sim check --rules ./mine.ts --old-rules fail-closed --small-worlds-only' } });
    expect(lines([world('default', false), skewed('skew'), skewed('skew, broker key'), skewed('skew, 3 engines')], 4)).toContain(
      'Upgrade checked: fail-closed, which this rule set extends, ran beside it in the 3 skewed small worlds (a rolling deploy runs both side by side; --old-rules fail-closed skews every seed, --no-upgrade leaves the upgrade out; where the rules deployed today are another version, --old-rules <its file> checks beside it)',
    );
    // And in the swarm's seeds that drew skew; in those alone where no small world ran.
    const withSeeds = (worlds: SmallWorldResult[], planned: number, u: { worlds: number; seeds: number }) =>
      renderReport({ ...buildReport(emptyShard(), [], { rules: 'r', oldRules: null, seconds: 2, replayCommand: (p) => p, smallWorlds: planned === 0 ? null : smallWorldsReport(worlds, 1, planned), swarm: true, coverage: null }), upgrade: { from: 'fail-closed', checked: true, ...u, command: 'x' } });
    expect(withSeeds([world('default', false), skewed('skew')], 2, { worlds: 1, seeds: 1_243 })).toContain(
      "Upgrade checked: fail-closed, which this rule set extends, ran beside it in the 1 skewed small world and in 1,243 of the swarm's seeds (one in four) (a rolling deploy runs both side by side; --old-rules fail-closed skews every seed, --no-upgrade leaves the upgrade out; where the rules deployed today are another version, --old-rules <its file> checks beside it)",
    );
    expect(withSeeds([], 0, { worlds: 0, seeds: 5 })).toContain(
      "Upgrade checked: fail-closed, which this rule set extends, ran beside it in 5 of the swarm's seeds (one in four) (a rolling deploy runs both side by side; --old-rules fail-closed skews every seed, --no-upgrade leaves the upgrade out; where the rules deployed today are another version, --old-rules <its file> checks beside it)",
    );
    // One cut at its million states, one never searched: not a check of the upgrade.
    expect(lines([world('default', false), skewed('skew'), skewed('skew, broker key', false)], 4)).toContain(
      'Upgrade checked only in part: fail-closed, which this rule set extends, ran beside it to the end in 1 of the 3 skewed small worlds (the others were cut by the suite\'s bound of states); check the upgrade alone: npx outbox-sim check --rules ./mine.ts --old-rules fail-closed --small-worlds-only',
    );
  });
  it('a world cut short is not a proof, and says so', () => {
    const cut = { ...world('big', false), complete: false, stoppedBy: 'max-states' };
    const text = renderSmallWorlds(smallWorldsReport([cut], 1, 1));
    expect(text[1]).toContain('PARTIAL (stopped by max-states): not a proof');
    expect(text).toContain('WARNING: a small world was not searched to its end: the suite proves nothing about it');
  });
  it('a suite that spent its bound of states says how many worlds it left and what such sizes often mean', () => {
    const big = (name: string) => ({ ...world(name, false), states: 1_000_000, complete: false, stoppedBy: 'max-states' });
    const text = renderSmallWorlds(smallWorldsReport([big('default'), big('1 corruption'), big('broker id-409')], 20, 16));
    expect(text).toContain(
      'The suite stopped after 3 worlds: their 3,000,000 states passed its bound of 3,000,000, and 13 worlds were not searched. Worlds this large often mean a record field that grows without end (an attempt counter never capped, a history never trimmed).',
    );
    expect(text).toContain('WARNING: a small world was not searched to its end: the suite proves nothing about it');
    expect(smallWorldsReport([world('default', false)], 1, 1).unsearched).toBe(0);
  });
  it('the suite ends once the worlds searched hold its bound of states, in suite order, on one thread and on two (the same prefix)', async () => {
    const pair = await rulesPair('fail-closed', undefined);
    const suite = smallWorlds(false).slice(0, 5);
    const outDir = join(tmp, 'spent');
    const replayCommand = (p: string) => p;
    // The default world holds 6,581 states, the corruption world 43,061: a bound of 10,000 ends the suite after the second.
    const one = exploreSuite(pair, suite, { outDir, replayCommand, now: () => 0, suiteStatesMax: 10_000 });
    expect(one.map((w) => [w.name, w.states])).toEqual([['default', 6581], ['1 corruption, no crash', 43061]]);
    const steppers = steppersFor(pair.rules, null);
    const two = await runCheckJob(
      { rules: 'fail-closed', oldRules: null, worlds: suite, outDir, symmetry: true, plan: null, workers: 2, stopOnFirst: false, suiteStatesMax: 10_000 },
      threadOrder(suite),
      1,
      1,
      { now: () => 0, replayCommand, searchHere: (i, stop) => exploreSmallWorld(pair, steppers, suite[i], i, { outDir, replayCommand, now: () => 0, stopReason: stop }) },
    );
    await two.threadsEnded;
    expect(two.worlds.map((w) => [w.name, w.states])).toEqual(one.map((w) => [w.name, w.states]));
  }, 60_000);
  it('a complete world that left quiet states unjudged (waiting for time) says so beside its verdict', () => {
    const waited = { ...world('default', false), waitingUnjudged: 63 };
    const text = renderSmallWorlds(smallWorldsReport([waited, world('broker key', false)], 1, 2));
    expect(text[1]).toMatch(/ {2}complete, no violation; liveness not judged at 63 quiet states waiting for a time this world does not reach$/);
    expect(text[2]).toMatch(/ {2}complete, no violation$/);
  });
  it('says, once per reason, in how many worlds the symmetry reduction asked for was off', () => {
    const pids = 'the rule set reads an engine\'s pid';
    const text = renderSmallWorlds(smallWorldsReport([{ ...world('default', false), symmetryOff: pids }, { ...world('broker key', false), symmetryOff: pids }, world('broker none', false)], 1, 3));
    expect(text).toContain(`  symmetry off in 2 of the 3 worlds: ${pids}; every state stored`);
    expect(renderSmallWorlds(smallWorldsReport([{ ...world('default', false), symmetryOff: pids }], 1, 1))).toContain(`  symmetry off in every world: ${pids}; every state stored`);
    expect(renderSmallWorlds(smallWorldsReport([world('default', false)], 1, 1)).some((l) => l.includes('symmetry'))).toBe(false);
  });
  it('a world cut short beside a violated one is a note, not a warning that the suite proves nothing (--stop-on-first)', () => {
    const cut = { ...world('big', false), complete: false, stoppedBy: 'interrupted' };
    const text = renderSmallWorlds(smallWorldsReport([world('default', true), cut], 1, 2));
    expect(text.some((l) => l.startsWith('WARNING'))).toBe(false);
    expect(text).toContain('Note: not every small world was searched to its end (the verdict above stands on the violation found)');
  });
});

describe('check runs the small worlds, then the swarm', () => {
  it('--small-worlds-only: each world with its states, completeness and violations; no swarm; exit 1 on a flaw', async () => {
    const r = await run('check', '--rules', 'fresh-cycle-after-definite', '--small-worlds-only', '--broker', 'id-ok', '--json', '--out', join(tmp, 'only'));
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as CheckReport;
    expect([report.ok, report.swarm, report.runs, report.coverage]).toEqual([false, false, 0, null]);
    const sw = report.smallWorlds;
    // fresh-cycle-after-definite extends fail-closed: the upgrade from it runs by default, its skewed worlds last.
    expect(sw?.worlds.map((w) => w.name)).toEqual(smallWorlds(true, { broker: 'id-ok' }, true).map((w) => w.name));
    expect(sw?.worlds[0].violations[0].property).toBe('honest-park');
    expect(sw?.worlds[0].states).toBeGreaterThan(0);
    expect(sw?.ok).toBe(false);
  });
  it('--swarm-only (and one --seed) run no small world; the swarm reports its pair coverage', async () => {
    const r = await run('check', '--swarm-only', '--seeds', '40', '--json', '--out', join(tmp, 'swarm'));
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as CheckReport;
    expect([report.smallWorlds, report.swarm, report.runs]).toEqual([null, true, 40]);
    expect(report.coverage?.covered).toBe(report.coverage?.pairs);
    expect(report.coverage?.allBySeed).toBeLessThanOrEqual(17);
    const one = JSON.parse((await run('check', '--seed', '3', '--json', '--out', join(tmp, 'one'))).out) as CheckReport;
    expect([one.smallWorlds, one.runs]).toEqual([null, 1]);
  });
  it('the halves exclude each other, and --small-worlds-only takes no seed flag: exit 2, one line', async () => {
    for (const argv of [['--swarm-only', '--small-worlds-only'], ['--small-worlds-only', '--seeds', '10'], ['--small-worlds-only', '--seed', '1'], ['--operator', 'x']]) {
      const r = await run('check', ...argv);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
    }
  });
  it('a signal during the small worlds stops them between worlds: no seed runs, the summary says so, exit 143', async () => {
    const listeners = process.listenerCount('SIGTERM');
    // Sent as the check starts: its handler runs at the suite's next turn of the event loop (between worlds), not after all of them.
    setImmediate(() => process.emit('SIGTERM'));
    try {
      const r = await run('check', '--json', '--out', join(tmp, 'interrupted'));
      expect(r.code).toBe(143);
      const report = JSON.parse(r.out) as CheckReport & { interrupted: { signal: string; runs: number } };
      expect(report.interrupted).toMatchObject({ signal: 'SIGTERM', runs: 0 });
      expect(report.smallWorlds?.worlds.length).toBeLessThan(smallWorlds(false).length);
      expect(report.smallWorlds?.decided).toBe(false);
      expect(report.runs).toBe(0);
    } finally {
      clearInterrupt();
    }
    expect(process.listenerCount('SIGTERM')).toBe(listeners);
  });
  it('worker threads take the first world first (the suite answers in suite order), then the heaviest, each world once', () => {
    const worlds = smallWorlds(false);
    const order = threadOrder(worlds);
    expect(order[0]).toBe(0);
    expect(worlds[order[1]].name).toBe('1 engine, 1 body, attempts 1, no crash, 6 operator actions');
    expect(worlds[order[order.length - 1]].name).toBe('nothing fails, attempts 1');
    expect([...order].sort((a, b) => a - b)).toEqual(worlds.map((_, i) => i));
    expect(threadOrder([])).toEqual([]);
  });
  it('--operator N fixes the operator budget of every seed, and one --seed shows it', async () => {
    const r = await run('check', '--swarm-only', '--seed', '300', '--operator', '11', '--out', join(tmp, 'op'));
    expect(r.out).toContain('operatorMax=11');
    expect(r.out).toContain('; operator actions 11;');
  });
});
