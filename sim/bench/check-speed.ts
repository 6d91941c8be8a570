/**
 * The bench's section on `check`'s speed where users wait (issue 23):
 * - simulated steps per second on one core: today's seed runner against the
 *   previous one (`previous-fast-run.ts`, the runner as it was before), same
 *   seeds, alternated rounds in this process; and, for scale, the
 *   representation before both (the reference runner recording every step,
 *   with seedrandom's own streams);
 * - time to the first violation of each flawed catalog rule set, as a user
 *   runs it (`check --rules R --stop-on-first`, a process from start to exit),
 *   and the start-up of `outbox-sim rules`;
 * - 2 workers against 1 beside the machine's own ceiling (two independent
 *   `check` processes against one), measured in the same rounds, for the
 *   swarm alone (a short run and a long one) and for the main job.
 * Wall-clock time is read here, for reporting only.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { CATALOG, failClosed } from '../../model/catalog/index.ts';
import { BOUNDS_DEFAULT, runShard, type CheckPlan, type SeedRunner, type ShardResult } from '../check.ts';
import { runSeedPrevious } from './previous-fast-run.ts';
import { withStreams, type Stream } from '../core/chooser.ts';
import { ceilingRatio, cpuRatio, workersAndCeiling } from './check-processes.ts';
import { processCpuSeconds } from './cpu-seconds.ts';
import { alternatedRounds, speedup, speedupCells } from './rounds.ts';
import { sectionLog } from './section-log.ts';

/** The heading of this section: `--only check-speed` replaces the section under it in BENCHMARKS.md. */
export const CHECK_SPEED_HEADING = '## check where users wait: steps per second, first answers, workers';

/** seedrandom's stream, as the previous build made every child stream. */
const seedrandomStream = (text: string): Stream => {
  const rng = seedrandom(text);
  return { next: () => rng.quick() };
};

/** Seeds of the one-core comparison, and its rounds. */
const SPEED_SEEDS = 6_000;
const SPEED_ROUNDS = 4;
/** Runs of each process timed for a first answer (best of). */
const ANSWER_RUNS = 3;
/** Seeds of the workers' comparison and its ceiling, and their rounds. */
const WORKER_SEEDS = 10_000;
/**
 * Seeds of a long run beside it (about 9 s on one worker): what 2 workers
 * keep once each thread's fixed cost (its start-up, and V8 optimising the
 * hot code again in its own isolate) is spread over seconds of work.
 */
const LONG_WORKER_SEEDS = 60_000;
const WORKER_ROUNDS = 3;

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Steps per second of one side, best of its rounds. */
interface Side {
  steps: number;
  seconds: number[];
}

/**
 * Every step a shard simulated: its seeds' runs, and the steps long life and
 * deep cycles took again from those runs (whose time the shard's CPU time
 * holds too).
 */
export function simulatedSteps(r: Pick<ShardResult, 'steps' | 'longLife'>): { steps: number; again: number } {
  const life = r.longLife;
  const again = life === undefined ? 0 : life.steps + life.deep.steps;
  return { steps: r.steps + again, again };
}

function timeShard(plan: CheckPlan, runner: SeedRunner): { steps: number; again: number; seconds: number } {
  const run = () => runShard(plan, 1, SPEED_SEEDS + 1, undefined, runner);
  const t = processCpuSeconds();
  const r = runner === 'reference' ? withStreams(seedrandomStream, run) : run();
  return { ...simulatedSteps(r), seconds: processCpuSeconds() - t };
}

/** A command's wall seconds from spawn to exit, best of `runs`, with its last output. */
function processSeconds(args: readonly string[], runs: number, now: () => number): { seconds: number; stdout: string; status: number | null } {
  let best = Infinity;
  let last = { stdout: '', status: null as number | null };
  for (let r = 0; r < runs; r++) {
    const t = now();
    const p = spawnSync(process.execPath, ['bin/outbox-sim.mjs', ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
    best = Math.min(best, now() - t);
    last = { stdout: p.stdout, status: p.status };
  }
  return { seconds: best, ...last };
}

/** The workers the main job's header says its default chose (and the load that lowered them), from its output. */
export function mainJobWorkers(stdout: string, cores: number = availableParallelism()): string {
  const m = /; (\d+ workers?)(?: \(load ([\d.]+) on)?/.exec(stdout.split('\n')[0] ?? '');
  if (m === null) return 'its header named no workers';
  return `by default on ${m[1]} of the machine's ${cores} cores${m[2] === undefined ? '' : `, lowered by a load of ${m[2]}`}`;
}

/** The section's lines (markdown), measured now. */
export async function checkSpeedSection(now: () => number): Promise<string[]> {
  const { lines, log } = sectionLog();
  log(CHECK_SPEED_HEADING);
  log('');
  const load = () => loadavg()[0].toFixed(1);
  log(`Load average when this section started: ${load()} (${cpus().length} cores); the machine is shared, so read the ratios measured side by side, not the absolute figures.`);
  log('');

  // One core: the same seeds through today's runner and the previous one, alternated, after a warm-up of each.
  const plan: CheckPlan = { rules: failClosed, oldRules: null, seedStart: 1, seeds: SPEED_SEEDS, broker: null, bounds: BOUNDS_DEFAULT };
  runShard(plan, 1, 1001);
  runShard(plan, 1, 1001, undefined, runSeedPrevious);
  const sides = await alternatedRounds(
    SPEED_ROUNDS,
    async () => timeShard(plan, runSeedPrevious),
    async () => timeShard(plan, 'fast'),
  );
  const previous: Side = { steps: sides.one[0].steps, seconds: sides.one.map((x) => x.seconds) };
  const fast: Side = { steps: sides.two[0].steps, seconds: sides.two.map((x) => x.seconds) };
  if (previous.steps !== fast.steps) throw new Error(`bench: the runners simulated different steps (${previous.steps} against ${fast.steps})`);
  // For scale, once: the representation before both (every step recorded, seedrandom's streams).
  withStreams(seedrandomStream, () => runShard(plan, 1, 1001, undefined, 'reference'));
  const reference = timeShard(plan, 'reference');
  const s = speedup(previous.seconds, fast.seconds);
  const again = sides.two[0].again;
  log(`Simulated steps per second on one core: \`check --rules fail-closed\`'s first ${fmt(SPEED_SEEDS)} seeds (${fmt(fast.steps)} steps: ${fmt(fast.steps - again)} in the seeds' runs and ${fmt(again)} that long life and deep cycles took again from them) in this process, ${SPEED_ROUNDS} alternated rounds, timed in CPU seconds of the process (steadier than wall time on a shared machine). Today's seed runner (sim/core/fast-run.ts, what \`check\` runs) against the previous one (sim/bench/previous-fast-run.ts, the runner as it was before, on today's world and engine step): same seeds, same runs (sim/core/fast-run.test.ts holds both runners to the reference). The last row, timed once for scale, is the representation before both: the reference runner recording every step (label, step record, tag object) with seedrandom's streams.`);
  log('');
  log('| runner | best CPU s | steps/s (best) | **ratio, best of each** | ratio in each round | median |');
  log('| --- | ---: | ---: | ---: | --- | ---: |');
  log(`| previous seed runner | ${s.oneBest.toFixed(2)} | ${fmt(previous.steps / s.oneBest)} | | | |`);
  log(`| seed runner (check's) | ${s.twoBest.toFixed(2)} | ${fmt(fast.steps / s.twoBest)} | ${speedupCells(s)} |`);
  log(`| reference runner, seedrandom (once, for scale) | ${reference.seconds.toFixed(2)} | ${fmt(reference.steps / reference.seconds)} | ${(reference.seconds / s.twoBest).toFixed(2)}x | | |`);
  log('');

  // First answers, as a user waits for them.
  const out = mkdtempSync(join(tmpdir(), 'outbox-sim-bench-answers-'));
  log(`Time from the command to the answer, each a process of its own (best of ${ANSWER_RUNS}; start-up included):`);
  log('');
  log('| command | s | answer |');
  log('| --- | ---: | --- |');
  const rules = processSeconds(['rules'], ANSWER_RUNS, now);
  log(`| \`outbox-sim rules\` | ${rules.seconds.toFixed(2)} | the catalog listed |`);
  for (const r of CATALOG.filter((x) => x !== failClosed)) {
    // The swarm's first answer (the small worlds, explored first by default, answer from their own search).
    const p = processSeconds(['check', '--swarm-only', '--rules', r.name, '--stop-on-first', '--json', '--out', out], ANSWER_RUNS, now);
    const report = JSON.parse(p.stdout) as { runs: number; seconds: number; violations: { property: string; seed: number }[] };
    const found = report.violations.map((v) => `${v.property} at seed ${v.seed}`).join(', ');
    log(`| \`outbox-sim check --swarm-only --rules ${r.name} --stop-on-first\` | ${p.seconds.toFixed(2)} | exit ${p.status}: ${found || 'none'} (${fmt(report.runs)} seed${report.runs === 1 ? '' : 's'} run in ${report.seconds.toFixed(2)} s; the rest is start-up and shrinking) |`);
  }
  // The README's main job as it is typed; its header names the workers its default chose (default-workers.ts).
  const main = processSeconds(['check'], 1, now);
  log(`| \`outbox-sim check\` (the main job: fail-closed, the small worlds and ${fmt(5000)} seeds; ${mainJobWorkers(main.stdout)}) | ${main.seconds.toFixed(2)} | exit ${main.status} |`);
  rmSync(out, { recursive: true, force: true });
  log('');

  // 2 workers against 1, beside two independent processes against one, in the same rounds: the swarm alone, then the main job.
  log(`2 workers against 1 beside the machine's ceiling, whole processes as a user runs them: in each of ${WORKER_ROUNDS} rounds (the order rotating) one process with \`--workers 1\`, one with \`--workers 2\`, and two independent \`--workers 1\` processes started together; the ceiling is 2 x (1 worker) / (the two together), what two cores give two copies of the work that share nothing (best of each side). The main job runs its small worlds and its seeds as one job on one pool (sim/workers/check-job.ts); without \`--workers\` it uses the machine's idle cores.`);
  log('');
  log('| work | 1 worker s | 2 workers s | **ratio 2/1** | two processes s | ceiling | **ratio / ceiling** | CPU s, 1 worker / 2 workers | CPU 1/2 |');
  log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const jobs: [string, string[]][] = [
    [`\`check --swarm-only --seeds ${fmt(WORKER_SEEDS)}\``, ['--swarm-only', '--seeds', `${WORKER_SEEDS}`]],
    [`\`check --swarm-only --seeds ${fmt(LONG_WORKER_SEEDS)}\` (a long run)`, ['--swarm-only', '--seeds', `${LONG_WORKER_SEEDS}`]],
    ['`check` (the main job: the small worlds and 5,000 seeds)', []],
  ];
  for (const [label, args] of jobs) {
    const m = await workersAndCeiling(args, WORKER_ROUNDS, now);
    const c = ceilingRatio(m);
    const cpu = cpuRatio(m);
    const cpuCells = cpu === null ? 'n/a | n/a' : `${cpu.one.toFixed(2)} / ${cpu.two.toFixed(2)} | ${(100 * cpu.ratio).toFixed(0)}%`;
    log(`| ${label} | ${Math.min(...m.one).toFixed(2)} | ${Math.min(...m.two).toFixed(2)} | **${c.ratio.toFixed(2)}x** | ${Math.min(...m.pair).toFixed(2)} | ${c.ceiling.toFixed(2)}x | **${(100 * c.ofCeiling).toFixed(0)}%** | ${cpuCells} |`);
  }
  log('');
  log(`Load average when this section ended: ${load()}. A ceiling near 1x means no second core was free in this run: 2 workers cannot gain there, whatever their own ratio. CPU s are each process's own (every thread, least of the rounds): with every core busy, wall time follows CPU time, so ratio / ceiling comes to about CPU 1/2, and what the second thread costs beyond its share of the work caps it (its start-up, its warm-up, and V8 optimizing every hot function again on its own isolate: about 1 s of CPU on compiler threads, measured per thread). That cost is fixed per thread, not per seed: the long run spreads it over several seconds of work, the short runs do not.`);
  log('');
  return lines;
}

/**
 * Where the section under `heading` lies among `all` lines: from the heading
 * to the next heading or a marker line of another generator
 * (`<!-- finding-power:start -->`), which it must not eat; null when absent.
 */
function sectionRange(all: readonly string[], heading: string): { start: number; end: number } | null {
  const start = all.indexOf(heading);
  if (start < 0) return null;
  const end = all.findIndex((l, i) => i > start && (l.startsWith('## ') || l.startsWith('<!--')));
  return { start, end: end < 0 ? all.length : end };
}

/** The lines of the section under `heading` in `text`, or null when absent. */
export function sectionOf(text: string, heading: string): string[] | null {
  const all = text.split('\n');
  const range = sectionRange(all, heading);
  return range === null ? null : all.slice(range.start, range.end);
}

/** `text` with the section under `heading` replaced by `section` (appended when absent); other sections are kept as they are. */
export function replaceSection(text: string, heading: string, section: readonly string[]): string {
  const all = text.split('\n');
  const range = sectionRange(all, heading);
  if (range === null) return `${text.replace(/\n*$/, '\n\n')}${section.join('\n')}\n`;
  return [...all.slice(0, range.start), ...section, ...all.slice(range.end)].join('\n');
}
