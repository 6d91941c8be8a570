/**
 * A check on worker threads gives the check on one thread: the suite's
 * worlds in suite order with the same states and violations, whatever
 * order they finish in, `--stop-on-first` stopping at the same world, and
 * the whole job (suite and swarm on one pool, the swarm running while the
 * suite runs) the same report and traces as one worker.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CheckReport } from '../check-report.ts';
import { rulesPair } from '../cli/check-command.ts';
import { main } from '../cli/main.ts';
import { exploreSmallWorld, exploreSuite, threadOrder, smallWorlds, type SmallWorldResult } from '../small-worlds.ts';
import { BOUNDS_DEFAULT, steppersFor } from '../check.ts';
import { runCheckJob } from './check-job.ts';
import { keptPoolCount, withKeptPools } from './kept-pools.ts';
import { clearInterrupt, requestInterrupt, requestStale } from '../interrupt.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'check-job-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A world's result without its timing. */
const comparable = (r: SmallWorldResult) => ({ ...r, seconds: 0 });

async function json(...argv: string[]): Promise<{ code: number; report: CheckReport }> {
  const out: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: () => undefined, tty: false });
  return { code, report: JSON.parse(out.join('\n')) as CheckReport };
}

/** A report without its timings and output paths. */
function strip(r: CheckReport): unknown {
  return {
    ...r,
    seconds: 0,
    smallWorlds: r.smallWorlds === null ? null : { ...r.smallWorlds, seconds: 0, worlds: r.smallWorlds.worlds.map((w) => ({ ...comparable(w), violations: w.violations.map((v) => ({ ...v, path: '', replay: '' })) })) },
    violations: r.violations.map((v) => ({ ...v, path: '', replay: '' })),
  };
}

function traces(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

describe('a check job on worker threads', () => {
  it('gives the one-thread suite: same worlds, order, states and verdicts, reported in suite order whatever order they finish in', async () => {
    const replayCommand = (p: string) => `replay ${p}`;
    const pair = await rulesPair('fail-closed', undefined);
    // Four cheap clean worlds of fail-closed, finishing in whatever order.
    const clean = smallWorlds(false).filter((w) => ['broker id-409', '1 engine, attempts 3, crashes 2, broker key', '1 engine, dedupe window 2', 'broker key'].includes(w.name));
    const one = exploreSuite(pair, clean, { outDir: join(tmp, 'one'), replayCommand, now: () => 0 });
    const seen: number[] = [];
    const steppers = steppersFor(pair.rules, null);
    const here: number[] = [];
    const two = await runCheckJob(
      { rules: 'fail-closed', oldRules: null, worlds: clean, outDir: join(tmp, 'one'), symmetry: true, plan: null, workers: 2, stopOnFirst: false },
      threadOrder(clean),
      1,
      1,
      {
        now: () => 0,
        replayCommand,
        searchHere: (i, stop) => {
          here.push(i);
          return exploreSmallWorld(pair, steppers, clean[i], i, { outDir: join(tmp, 'one'), replayCommand, now: () => 0, stopReason: stop });
        },
        onWorld: (i) => seen.push(i),
      },
    );
    // The threads end after the job's result is handed back; they do end.
    await two.threadsEnded;
    expect(two.worlds.map(comparable)).toEqual(one.map(comparable));
    expect(two.swarm.runs).toBe(0);
    expect(seen).toEqual([0, 1, 2, 3]);
    // The main thread takes worlds from the front of the order (the threads from the light end): its first is the order's first.
    const order = threadOrder(clean);
    expect(here[0]).toBe(order[0]);
  }, 300_000);

  it('a world searched on both sides writes its traces once: the side whose search ends second writes none, even when it ends after the job', async () => {
    // The fixture's worker thread pauses 1.5 s in its first world; the main thread searches its own world, then that
    // one too, and ends it first. The pool is kept (as under check --watch), so the thread goes on to end its search
    // after the job. It used to write the world's trace again then (and a thread ended while it wrote left the
    // temporary file of that write in the traces folder).
    const rules = './sim/workers/test-thread-pauses.ts';
    const pair = await rulesPair(rules, undefined);
    const worlds = smallWorlds(false).filter((w) => ['1 engine, dedupe window 2', '1 engine, attempts 3, crashes 2, broker key'].includes(w.name));
    const steppers = steppersFor(pair.rules, null);
    const outDir = join(tmp, 'twice');
    const flag = join(tmp, 'twice-paused');
    process.env.OUTBOX_SIM_TEST_PAUSE = flag;
    try {
      await withKeptPools(async () => {
        const here: number[] = [];
        const r = await runCheckJob({ rules, oldRules: null, worlds, outDir, symmetry: true, plan: null, workers: 2, stopOnFirst: false }, threadOrder(worlds), 1, 1, {
          now: () => 0,
          replayCommand: (p) => p,
          searchHere: (i, stop, claim) => {
            here.push(i);
            return exploreSmallWorld(pair, steppers, worlds[i], i, { outDir, replayCommand: (p) => p, now: () => 0, stopReason: stop, ...(claim ? { claim } : {}) });
          },
        });
        expect(readFileSync(flag, 'utf8')).toBe('stalled');
        // Both worlds were searched here (the thread's after it paused), each found its violation and wrote its trace.
        expect(here.sort()).toEqual([0, 1]);
        expect(r.worlds.map((w) => w.violations.length)).toEqual([1, 1]);
        const written = readdirSync(outDir).sort();
        expect(written).toEqual(r.worlds.map((w) => w.violations[0].path.split('/').pop()).sort());
        // The thread's search of its world ends within a few seconds of its pause: it must write nothing.
        for (const f of written) rmSync(join(outDir, f));
        for (let waited = 0; waited < 4_000; waited += 50) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          expect(readdirSync(outDir)).toEqual([]);
        }
      });
    } finally {
      delete process.env.OUTBOX_SIM_TEST_PAUSE;
    }
  }, 60_000);

  it('under a watch, a job a save made stale gives its pool back for the next run; one a signal stopped ends its threads', async () => {
    const pair = await rulesPair('fail-closed', undefined);
    const worlds = smallWorlds(false).filter((w) => ['broker id-409', 'broker key', 'broker none'].includes(w.name));
    const steppers = steppersFor(pair.rules, null);
    const outDir = join(tmp, 'stale');
    const kept: number[] = [];
    for (const stop of [() => requestStale(), () => requestInterrupt('SIGINT')]) {
      try {
        await withKeptPools(async () => {
          await runCheckJob({ rules: 'fail-closed', oldRules: null, worlds, outDir, symmetry: true, plan: null, workers: 2, stopOnFirst: false }, threadOrder(worlds), 1, 1, {
            now: () => 0,
            replayCommand: (p) => p,
            searchHere: (i, stopReason) => {
              // The stop comes while the main thread searches its first world.
              stop();
              return exploreSmallWorld(pair, steppers, worlds[i], i, { outDir, replayCommand: (p) => p, now: () => 0, stopReason });
            },
          });
          kept.push(keptPoolCount());
        });
      } finally {
        clearInterrupt();
      }
    }
    expect(kept).toEqual([1, 0]);
  }, 60_000);

  it("a thread's violating seed is announced while the main thread is inside a long world search, not after it", async () => {
    const pair = await rulesPair('fresh-cycle', undefined);
    const steppers = steppersFor(pair.rules, null);
    const worlds = smallWorlds(false).filter((w) => w.name === 'broker key');
    const outDir = join(tmp, 'answer-first');
    let announced = false;
    let duringSearch = false;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const r = await runCheckJob(
      { rules: 'fresh-cycle', oldRules: null, worlds, outDir, symmetry: true, plan: { rules: 'fresh-cycle', oldRules: null, broker: null, bounds: BOUNDS_DEFAULT }, workers: 2, stopOnFirst: false },
      threadOrder(worlds),
      1,
      200,
      {
        now: () => 0,
        replayCommand: (p) => p,
        // A search that holds this thread (as a world of a million states does) until a seed's violation is announced, 30 s at most.
        searchHere: (i, stop) => {
          for (let k = 0; k < 3000 && !announced; k++) {
            stop();
            Atomics.wait(pause, 0, 0, 10);
          }
          duringSearch = announced;
          return exploreSmallWorld(pair, steppers, worlds[i], i, { outDir, replayCommand: (p) => p, now: () => 0, stopReason: stop });
        },
        onViolation: () => {
          announced = true;
        },
      },
    );
    await r.threadsEnded;
    expect(duringSearch).toBe(true);
    expect(Object.keys(r.swarm.first)).toContain('no-silent-loss');
  }, 60_000);

  it('ends without an onWorld hook (the hook is optional: the loop that hands worlds out no longer waits on it)', () => {
    // In a process of its own, with a time limit: the loop spun on the main thread, which no test timeout can interrupt.
    const script = [
      "import { rulesPair } from './sim/cli/check-command.ts';",
      "import { steppersFor } from './sim/check.ts';",
      "import { exploreSmallWorld, smallWorlds, threadOrder } from './sim/small-worlds.ts';",
      "import { runCheckJob } from './sim/workers/check-job.ts';",
      "const pair = await rulesPair('fail-closed', undefined);",
      "const worlds = smallWorlds(false).filter((w) => w.name === '1 engine, dedupe window 2');",
      "const steppers = steppersFor(pair.rules, null);",
      `const run = { outDir: ${JSON.stringify(join(tmp, 'no-hook'))}, replayCommand: (p) => p, now: () => 0 };`,
      "const r = await runCheckJob({ rules: 'fail-closed', oldRules: null, worlds, outDir: run.outDir, symmetry: true, plan: null, workers: 1, stopOnFirst: false }, threadOrder(worlds), 1, 1,",
      "  { now: () => 0, replayCommand: run.replayCommand, searchHere: (i, stop) => exploreSmallWorld(pair, steppers, worlds[i], i, { ...run, stopReason: stop }) });",
      "console.log(JSON.stringify(r.worlds.map((w) => [w.name, w.states, w.complete])));",
    ].join('\n');
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(out.signal).toBeNull();
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout.trim())).toEqual([['1 engine, dedupe window 2', 1298, true]]);
  }, 90_000);

  it('check --workers 2 --stop-on-first: the report of --workers 1 (the suite stops at the first violating world)', async () => {
    const argv = ['check', '--rules', 'fresh-cycle-after-definite', '--small-worlds-only', '--stop-on-first', '--json'];
    const one = await json(...argv, '--workers', '1', '--out', join(tmp, 'w1'));
    const two = await json(...argv, '--workers', '2', '--out', join(tmp, 'w2'));
    expect([one.code, two.code]).toEqual([1, 1]);
    expect(strip(two.report)).toEqual(strip(one.report));
    expect(two.report.smallWorlds?.worlds.map((w) => w.name)).toEqual(['default']);
    // No seed ran: the suite's violation ended the check before the swarm, as on one thread.
    expect(two.report.runs).toBe(0);
  }, 300_000);

  it('a rule file: the threads search the worlds of the file (by its path), the report of 1 worker', async () => {
    const argv = ['check', '--rules', './properties/mutants/envelope-id-is-key.ts', '--small-worlds-only', '--json'];
    const one = await json(...argv, '--workers', '1', '--out', join(tmp, 'file1'));
    const two = await json(...argv, '--workers', '2', '--out', join(tmp, 'file2'));
    expect(two.code).toBe(one.code);
    expect(strip(two.report)).toEqual(strip(one.report));
    expect(traces(join(tmp, 'file2'))).toEqual(traces(join(tmp, 'file1')));
  }, 300_000);

  it('does not wait for a thread that holds seeds and gets no CPU: the main thread runs them too, and the report is that of 1 worker', async () => {
    // The fixture's worker thread takes its first seeds and then stalls for a minute; the test's budget is less.
    const argv = ['check', '--rules', './sim/workers/test-thread-stalls.ts', '--swarm-only', '--seeds', '3000', '--json'];
    const one = await json(...argv, '--workers', '1', '--out', join(tmp, 'stall1'));
    const two = await json(...argv, '--workers', '2', '--out', join(tmp, 'stall2'));
    expect(two.code).toBe(one.code);
    expect(one.report.runs).toBe(3000);
    expect(strip(two.report)).toEqual(strip(one.report));
  }, 45_000);

  it('--stop-on-first does not wait for a world a thread holds that the violating world before it cut off: the report of 1 worker, long before the thread would answer', async () => {
    // The fixture's worker thread stalls for a minute in its first world (the second of the suite, as the main thread
    // takes the first), and the main thread's first world waits until it has; the first world violates.
    const argv = ['check', '--rules', './sim/workers/test-thread-stalls-in-cut-world.ts', '--small-worlds-only', '--stop-on-first', '--json'];
    const one = await json(...argv, '--workers', '1', '--out', join(tmp, 'cut1'));
    const flag = join(tmp, 'cut-stalled');
    process.env.OUTBOX_SIM_TEST_STALL = flag;
    try {
      const two = await json(...argv, '--workers', '2', '--out', join(tmp, 'cut2'));
      expect(readFileSync(flag, 'utf8')).toBe('stalled');
      expect([one.code, two.code]).toEqual([1, 1]);
      expect(one.report.smallWorlds?.worlds.map((w) => w.name)).toEqual(['default']);
      expect(strip(two.report)).toEqual(strip(one.report));
    } finally {
      delete process.env.OUTBOX_SIM_TEST_STALL;
    }
  }, 45_000);

  it('searches a world a thread holds on the main thread too when the thread gets no CPU: the report of 1 worker, long before the thread would answer', async () => {
    // The fixture's worker thread stalls for a minute in its first world (the heaviest of the suite).
    // --no-upgrade: the fixture extends fail-closed, and the upgrade's worlds would add time, not another path.
    const argv = ['check', '--rules', './sim/workers/test-thread-stalls.ts', '--small-worlds-only', '--no-upgrade', '--json'];
    const one = await json(...argv, '--workers', '1', '--out', join(tmp, 'held1'));
    const two = await json(...argv, '--workers', '2', '--out', join(tmp, 'held2'));
    expect([one.code, two.code]).toEqual([0, 0]);
    expect(one.report.smallWorlds?.worlds.length).toBe(smallWorlds(false).length);
    expect(strip(two.report)).toEqual(strip(one.report));
  }, 45_000);

  it('an interrupt does not wait for a world a thread holds and gets no CPU: the partial report comes at once, without that world', async () => {
    // The fixture's worker thread stalls for a minute in its first world; the main thread's first claim decision waits
    // until it has, and the interrupt comes at the main thread's next turn of its event loop. Before, the job waited
    // for the thread's world to reach its next look, a minute later.
    const flag = join(tmp, 'interrupt-stalled');
    process.env.OUTBOX_SIM_TEST_STALL = flag;
    const poll = setInterval(() => {
      if (existsSync(flag)) requestInterrupt('SIGINT');
    }, 5);
    try {
      const argv = ['check', '--rules', './sim/workers/test-thread-stalls.ts', '--small-worlds-only', '--json', '--workers', '2', '--out', join(tmp, 'interrupt2')];
      const two = await json(...argv);
      expect(readFileSync(flag, 'utf8')).toBe('stalled');
      expect(two.code).toBe(130);
      const report = two.report as CheckReport & { interrupted: { signal: string } | null };
      expect(report.interrupted?.signal).toBe('SIGINT');
      // Worlds are reported as a prefix of the suite, which ends before the world the thread held.
      expect(report.smallWorlds?.worlds.length ?? 0).toBeLessThan(smallWorlds(false).length);
    } finally {
      clearInterval(poll);
      clearInterrupt();
      delete process.env.OUTBOX_SIM_TEST_STALL;
    }
  }, 45_000);

  it('prints the report before it waits for the worker threads to end (a starved thread takes seconds to end)', async () => {
    // The pool's end is held back until the test lets it go: the report must be out by then.
    let outAtEnd: number | null = null;
    const out: string[] = [];
    const original = Piscina.prototype.destroy;
    const spy = vi.spyOn(Piscina.prototype, 'destroy').mockImplementation(async function (this: Piscina) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      outAtEnd = out.length;
      return original.call(this);
    });
    try {
      const code = await main(['check', '--rules', 'fresh-cycle', '--seeds', '300', '--workers', '2', '--json', '--out', join(tmp, 'ends')], { out: (l) => out.push(l), err: () => undefined, tty: false });
      expect(code).toBe(1);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(outAtEnd).toBe(out.length);
      expect((JSON.parse(out.join('\n')) as CheckReport).ok).toBe(false);
    } finally {
      spy.mockRestore();
    }
  }, 120_000);

  it('the whole check (suite and swarm on one pool) with 2 workers: the report and traces of 1', async () => {
    const argv = ['check', '--rules', 'fresh-cycle', '--seeds', '400', '--json'];
    const one = await json(...argv, '--workers', '1', '--out', join(tmp, 'all1'));
    const two = await json(...argv, '--workers', '2', '--out', join(tmp, 'all2'));
    expect([one.code, two.code]).toEqual([1, 1]);
    expect(one.report.runs).toBe(400);
    // fresh-cycle extends fail-closed: the upgrade from it runs by default, its skewed worlds on the threads too.
    expect(one.report.smallWorlds?.worlds.length).toBe(smallWorlds(true, { broker: null }, true).length);
    expect(strip(two.report)).toEqual(strip(one.report));
    expect(traces(join(tmp, 'all2'))).toEqual(traces(join(tmp, 'all1')));
  }, 600_000);
});
