/**
 * `npm run bench`: measures speed side by side in one run (the machines are
 * shared and noisy, so only ratios measured together are quoted) and writes
 * BENCHMARKS.md:
 * - explore: distinct states per second on fixed configurations, and symmetry reduction's time to a complete verdict;
 * - check: simulated steps per second, and what its seeds would cost on the packed world (packed-seeds.ts);
 * - start-up of `rules` and the time from the command to each catalog flaw's first violation (first-answers.ts);
 * - the fast path against XState-interpreted transitions, on the same recorded engine steps;
 * - check with 1 against 2 worker threads, in this process and as whole processes as a user runs them;
 * - when `spin` is installed, SPIN and explore side by side on the anchor configurations.
 * Wall-clock time is read here, for reporting only.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { failClosed } from '../../model/catalog/index.ts';
import type { EngineEvent } from '../../model/lifecycle.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { BOUNDS_DEFAULT, seedBounds, steppersFor } from '../check.ts';
import { explore } from '../core/explore.ts';
import { exploreOutbox } from '../outbox/explore-outbox.ts';
import { runSeed } from '../core/random.ts';
import { compiledStepper } from '../outbox/compiled-stepper.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../outbox/explore-options.ts';
import { outboxSystem } from '../outbox/outbox-system.ts';
import { swarmOptions } from '../outbox/options.ts';
import { xstateStepper, type EngineMemory, type Stepper } from '../outbox/stepper.ts';
import type { PlanSpec } from '../workers/check-task.ts';
import { runSeedsParallel } from '../workers/pool.ts';
import { checkProcessesSeconds, checkProcessRounds, type ProcessRounds } from './check-processes.ts';
import { arithmeticThreadsSeconds, checkThreadStartCost, cpuSecondsOf } from './cores.ts';
import { alternatedRounds, speedup, speedupCells } from './rounds.ts';
import { keptSection, withSection } from './finding-power.ts';
import { SPIN_UNREDUCED_MEMLIM, spinBuild, spinRun, type SpinReport } from './spin.ts';
import { POR_HEADING, porSection } from './por-bench.ts';
import { CHECK_SPEED_HEADING, checkSpeedSection, replaceSection, sectionOf } from './check-speed.ts';
import { FIRST_ANSWERS_HEADING, firstAnswersSection } from './first-answers.ts';
import { PACKED_SEEDS_HEADING, packedSeedsSection } from './packed-seeds.ts';
import { WATCH_HEADING, watchSection } from './watch-bench.ts';
import { sectionLog } from './section-log.ts';
import { processCpuSeconds } from './cpu-seconds.ts';

const now = (): number => Number(process.hrtime.bigint()) / 1e9;

/** The faster of two timed runs of the same work. */
function faster<T extends { seconds: number }>(a: T, b: T): T {
  return b.seconds < a.seconds ? b : a;
}

/** Alternated rounds of 1 and 2 workers: the machine's noise comes in bursts, and the best of each needs a few. */
const CHECK_ROUNDS = 4;

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** What every measured search reports, in this process or in a process of its own. */
interface SearchFigures {
  states: number;
  transitions: number;
  complete: boolean;
  seconds: number;
  statesPerSecond: number;
  indexBytesPerState: number;
}

interface ExploreFigure extends SearchFigures {
  label: string;
  sizes: ExploreSizes;
}

/** One search, on packed states (what `outbox-sim explore` runs) or on the object system. */
function measureExplore(label: string, sizes: ExploreSizes, statesMax: number, on: 'packed' | 'objects' = 'packed'): ExploreFigure {
  const options = exploreOptions(sizes);
  const steppers = steppersFor(failClosed, null);
  const t = now();
  const r = on === 'packed' ? exploreOutbox(options, { rules: failClosed }, steppers, { statesMax }) : explore(outboxSystem(options, { rules: failClosed }, steppers), { statesMax });
  const seconds = now() - t;
  return {
    label,
    sizes,
    states: r.states,
    transitions: r.transitions,
    complete: r.complete,
    seconds,
    statesPerSecond: r.states / seconds,
    indexBytesPerState: r.indexBytes / r.states,
  };
}

/** Engine step inputs recorded from seeded runs, to time both steppers on the same work. */
function recordEngineSteps(seeds: number): { memory: EngineMemory; event: EngineEvent }[] {
  const inputs: { memory: EngineMemory; event: EngineEvent }[] = [];
  const fast = compiledStepper(failClosed);
  const recording: Stepper = (memory, event) => {
    inputs.push({ memory, event });
    return fast(memory, event);
  };
  for (let seed = 1; seed <= seeds; seed++) {
    const options = swarmOptions(seed);
    runSeed(outboxSystem(options, { rules: failClosed }, { new: recording, old: recording, oldQueued: recording }), seed, seedBounds(BOUNDS_DEFAULT, options));
  }
  return inputs;
}

function timeStepper(stepper: Stepper, inputs: readonly { memory: EngineMemory; event: EngineEvent }[], rounds: number): number {
  const t = now();
  for (let r = 0; r < rounds; r++) for (const { memory, event } of inputs) stepper(memory, event);
  return (inputs.length * rounds) / (now() - t);
}

/** What the bench's `check` runs: fail-closed, brokers drawn per seed, default bounds. */
const CHECK_PLAN: PlanSpec = { rules: 'fail-closed', oldRules: null, broker: null, bounds: BOUNDS_DEFAULT };

/** Wall seconds of a `check` run, the CPU seconds of all the process's threads meanwhile, and its simulated steps. */
interface CheckTiming {
  seconds: number;
  cpuSeconds: number;
  steps: number;
}

async function timeCheck(workers: number, seeds: number): Promise<CheckTiming> {
  const t = now();
  let steps = 0;
  const cpuSeconds = await cpuSecondsOf(async () => {
    steps = (await runSeedsParallel(CHECK_PLAN, 1, seeds + 1, workers)).steps;
  });
  return { seconds: now() - t, cpuSeconds, steps };
}

/** Seeds of the bench's `check` run, and of the long run over which a new thread's fixed cost is amortised. */
const CHECK_SEEDS = 20_000;
const CHECK_LONG_SEEDS = 80_000;
/** Rounds of the long run (each about a minute here). */
const CHECK_LONG_ROUNDS = 3;
/** Seeds a new thread runs after its start in the start-up control (about half a second warm). */
const START_COST_SEEDS = 1_000;
/** Seeds of `check` timed as whole processes: the default run, and the bench's short run. */
const PROCESS_SEEDS = [5_000, 20_000] as const;
/** Rounds of each (one process with 1 worker and one with 2 a round). */
const PROCESS_ROUNDS = 3;

/** 1 and 2 workers on the same seeds, in `rounds` alternated rounds. */
function workersRounds(seeds: number, rounds: number): Promise<{ one: CheckTiming[]; two: CheckTiming[] }> {
  return alternatedRounds(rounds, () => timeCheck(1, seeds), () => timeCheck(2, seeds));
}

/** Bound of explore's searches beside SPIN: large enough that deriving transitions is amortised. */
const SPIN_SIDE_STATES_MAX = 2_000_000;

/** What `outbox-sim explore --json` reports of a search. */
interface ExploreReport extends SearchFigures {
  frontierBytesPerState: number;
  residentBytesPerState: number;
  residentBytesMax: number;
}

/** `outbox-sim explore` in a process of its own, as a user runs it (and as SPIN's pan runs). */
function exploreProcess(args: readonly string[]): ExploreReport {
  const run = spawnSync(process.execPath, ['bin/outbox-sim.mjs', 'explore', ...args, '--json', '--out', join(tmpdir(), 'outbox-sim-bench')], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (run.stdout === '') throw new Error(`bench: explore ${args.join(' ')} printed nothing (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as ExploreReport;
}

interface SpinFigure {
  engines: number;
  attempts: number;
  spin: SpinReport;
  /** SPIN without partial-order reduction, stopped near explore's bound by its memory limit. */
  unreduced: SpinReport;
  ours: ExploreReport;
}

/** Worlds of fail-closed whose complete verdict the symmetry rows time: engines, attempts, crashes. */
const SYMMETRY_WORLDS = [
  [2, 2, 1],
  [3, 3, 3],
  [4, 4, 4],
  [5, 4, 4],
  [5, 5, 5],
] as const;
/** Bound of the searches without symmetry beside them (the larger spaces do not fit: no verdict). */
const NO_SYMMETRY_STATES_MAX = 3_000_000;

/** One search as `outbox-sim explore` runs it (packed states, the eventually properties), in this process: wall and CPU seconds. */
function timeVerdict(sizes: ExploreSizes, symmetry: boolean, statesMax: number): { states: number; transitions: number; complete: boolean; seconds: number; cpuSeconds: number } {
  const options = exploreOptions(sizes);
  const steppers = steppersFor(failClosed, null);
  const t = now();
  const cpu = processCpuSeconds();
  const r = exploreOutbox(options, { rules: failClosed }, steppers, { statesMax, liveness: true, symmetry });
  return { states: r.states, transitions: r.transitions, complete: r.complete, seconds: now() - t, cpuSeconds: processCpuSeconds() - cpu };
}

/** `explore` with and without symmetry reduction: states and seconds to a complete verdict. */
function symmetrySection(log: (s: string) => void): void {
  log('## explore: symmetry reduction, time to a complete verdict');
  log('');
  log(`The search \`outbox-sim explore --engines N --attempts A --crashes C\` runs (fail-closed, one id, 2 bodies, the eventually properties too), in this process: with symmetry reduction (the default: one state stored per class of states equal up to renaming engine pids) and with \`--no-symmetry\` (every state, stopped at ${fmt(NO_SYMMETRY_STATES_MAX)}: no verdict where the space is larger). Wall seconds vary with the shared machine's load; CPU seconds (this process's, all threads) less so.`);
  log('');
  log('| engines | attempts | crashes | states | transitions | complete | wall s | CPU s | --no-symmetry states | complete | wall s | CPU s | **states stored, without / with** |');
  log('| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |');
  for (const [engines, attempts, crashes] of SYMMETRY_WORLDS) {
    const sizes = { ...EXPLORE_DEFAULTS, engines, attemptsMax: attempts, crashesMax: crashes };
    const on = timeVerdict(sizes, true, 200_000_000);
    const off = timeVerdict(sizes, false, NO_SYMMETRY_STATES_MAX);
    const ratio = off.complete ? `${(off.states / on.states).toFixed(1)}x` : `more than ${(off.states / on.states).toFixed(0)}x`;
    log(`| ${engines} | ${attempts} | ${crashes} | ${fmt(on.states)} | ${fmt(on.transitions)} | ${on.complete} | ${on.seconds.toFixed(2)} | ${on.cpuSeconds.toFixed(2)} | ${fmt(off.states)} | ${off.complete} | ${off.seconds.toFixed(2)} | ${off.cpuSeconds.toFixed(2)} | **${ratio}** |`);
  }
  log('');
}

/** The heading of the SPIN section (`npm run bench -- --only spin` replaces it alone). */
const SPIN_HEADING = '## SPIN side by side (anchor: 1 id, 2 bodies, broker dedupes by envelope id, fail-closed)';

/** Rounds of the SPIN section, alternated (explore, pan, pan unreduced), the fastest of each kept: the machine's speed drifts. */
const SPIN_ROUNDS = 3;

/**
 * The anchor model: in shared/ beside the checkout, which for a git worktree
 * (one folder deeper) is beside one of its parents; the nearest one found.
 */
function spinAnchor(): string {
  const at = (dir: string) => resolve(dir, 'shared', 'anchors', 'spin', 'outbox.pml');
  for (let dir = resolve('..'); ; dir = resolve(dir, '..')) {
    if (existsSync(at(dir))) return at(dir);
    if (dir === resolve(dir, '..')) return at(resolve('..'));
  }
}

/** SPIN side by side on the anchor configurations: its lines. */
function spinSection(): string[] {
  const { lines, log } = sectionLog();
  log(SPIN_HEADING);
  log('');
  const anchor = spinAnchor();
  const hasSpin = spawnSync('spin', ['-V'], { stdio: 'ignore' }).status === 0;
  if (!hasSpin || !existsSync(anchor)) {
    log(`SPIN not run: ${hasSpin ? `anchor model not found at ${anchor}` : '`spin` is not installed (apt-get install -y spin gcc)'}.`);
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-spin-'));
    copyFileSync(anchor, join(dir, 'outbox.pml'));
    const figures: SpinFigure[] = [];
    for (const [engines, attempts] of [[2, 3], [3, 3], [4, 4], [5, 4]] as const) {
      spinBuild(dir, engines, attempts);
      // Alternated rounds, the fastest of each: the machine's speed drifts.
      // Every interleaving stored, as pan-unreduced stores them (symmetry reduction is measured on its own above).
      const args = ['--engines', `${engines}`, '--attempts', `${attempts}`, '--crashes', `${engines}`, '--max-states', `${SPIN_SIDE_STATES_MAX}`, '--no-symmetry'];
      const round = () => ({ spin: spinRun(dir, 'pan'), ours: exploreProcess(args), unreduced: spinRun(dir, 'pan-unreduced') });
      const rounds = Array.from({ length: SPIN_ROUNDS }, round);
      const fastest = <T extends { seconds: number }>(pick: (r: (typeof rounds)[number]) => T): T => rounds.map(pick).reduce(faster);
      figures.push({ engines, attempts, spin: fastest((r) => r.spin), unreduced: fastest((r) => r.unreduced), ours: fastest((r) => r.ours) });
    }
    rmSync(dir, { recursive: true, force: true });
    log(`Both run by this benchmark in one go, each in a process of its own (\`outbox-sim explore --engines N --attempts A --crashes N --max-states ${SPIN_SIDE_STATES_MAX} --no-symmetry --json\` against pan), in ${SPIN_ROUNDS} alternated rounds (the fastest of each is shown); both report their search time without start-up. explore checks its eventually properties as it runs by default, as pan checks acceptance cycles (\`-a\`). The models differ in grain (explore has one state per durable write, restarts, and the whole answer menu), so state counts differ; the comparison is states per second. explore stops at ${fmt(SPIN_SIDE_STATES_MAX)} states where the space is larger (complete: false).`);
    log('');
    log('| engines | attempts | SPIN states | SPIN s (runs) | SPIN states/s | explore states | complete | explore s | explore states/s | **explore / SPIN, states/s** | SPIN transitions/state | explore transitions/state | explore / SPIN, transitions/s |');
    log('| ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const f of figures) {
      const spinRate = f.spin.states / f.spin.seconds;
      const spinEdges = f.spin.transitions / f.spin.seconds;
      const ourEdges = f.ours.transitions / f.ours.seconds;
      log(
        `| ${f.engines} | ${f.attempts} | ${fmt(f.spin.states)} | ${f.spin.seconds.toFixed(4)} (${f.spin.runs}) | ${fmt(spinRate)} | ${fmt(f.ours.states)} | ${f.ours.complete} | ${f.ours.seconds.toFixed(2)} | ${fmt(f.ours.statesPerSecond)} | **${(f.ours.statesPerSecond / spinRate).toFixed(2)}** | ${(f.spin.transitions / f.spin.states).toFixed(2)} | ${(f.ours.transitions / f.ours.states).toFixed(2)} | ${(ourEdges / spinEdges).toFixed(2)} |`,
      );
    }
    log('');
    log('pan reports its search time in 0.01 s ticks: a search shorter than a second is run again until the reported times add up to one, and the mean is shown with the number of runs. Transitions are SPIN\'s "stored+matched" and explore\'s successors generated: per transition explore does its work at the rate of the last column; its states/s is lower by its larger number of transitions per state.');
    log('');
    log('### The same, against SPIN without partial-order reduction');
    log('');
    const perState = figures.map((f) => f.spin.transitions / f.spin.states);
    log(`pan as built above applies SPIN's partial-order reduction (on unless compiled with -DNOREDUCE): of the interleavings of independent steps it stores few, hence its ${Math.min(...perState).toFixed(1)} to ${Math.max(...perState).toFixed(1)} transitions per state. explore applies no reduction and stores every interleaving. The same model compiled with -DNOREDUCE stores every interleaving too; it is run here in the same rounds as the two above, with a memory limit of ${SPIN_UNREDUCED_MEMLIM} MB at which it stops with a partial search (complete: false), near the size of explore's bound. explore's figures are those of the table above.`);
    log('');
    log('| engines | attempts | SPIN unreduced states | complete | SPIN unreduced s (runs) | SPIN unreduced states/s | SPIN unreduced transitions/state | explore states/s | **explore / SPIN unreduced, states/s** |');
    log('| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |');
    for (const f of figures) {
      const u = f.unreduced;
      const rate = u.states / u.seconds;
      log(
        `| ${f.engines} | ${f.attempts} | ${fmt(u.states)} | ${u.complete} | ${u.seconds.toFixed(4)} (${u.runs}) | ${fmt(rate)} | ${(u.transitions / u.states).toFixed(2)} | ${fmt(f.ours.statesPerSecond)} | **${(f.ours.statesPerSecond / rate).toFixed(2)}** |`,
      );
    }
    log('');
  }
  return lines;
}

/** The sections `--only NAME` measures alone, each replacing the section under its heading in BENCHMARKS.md. */
const ONLY: Readonly<Record<string, { heading: string; section: (clock: () => number) => Promise<string[]> }>> = {
  'check-speed': { heading: CHECK_SPEED_HEADING, section: checkSpeedSection },
  'first-answers': { heading: FIRST_ANSWERS_HEADING, section: firstAnswersSection },
  'packed-seeds': { heading: PACKED_SEEDS_HEADING, section: packedSeedsSection },
  watch: { heading: WATCH_HEADING, section: watchSection },
  spin: { heading: SPIN_HEADING, section: () => Promise.resolve(spinSection()) },
  por: { heading: POR_HEADING, section: () => Promise.resolve(porLines()) },
};

/** The partial-order reduction rows (a few minutes: `--por` at 5 engines), with progress on stderr. */
function porLines(): string[] {
  const { lines, log } = sectionLog();
  porSection(log, undefined, (s) => process.stderr.write(`${s}\n`));
  return lines;
}

export async function main(argv: readonly string[] = []): Promise<number> {
  // `npm run bench -- --only check-speed` (or packed-seeds, first-answers, watch, spin, por): measure and replace that section alone, keeping the rest of the file.
  if (argv[0] === '--only') {
    const only = ONLY[argv[1] ?? ''];
    if (only === undefined) throw new Error(`bench: --only takes ${Object.keys(ONLY).join(' or ')}, got ${argv[1] ?? 'nothing'}`);
    const section = await only.section(now);
    writeFileAtomic('BENCHMARKS.md', replaceSection(readFileSync('BENCHMARKS.md', 'utf8'), only.heading, section));
    return 0;
  }
  const { lines, log } = sectionLog();
  // `npm run bench -- --symmetry-only`: the symmetry rows alone, printed (BENCHMARKS.md is not written).
  if (argv.includes('--symmetry-only')) {
    symmetrySection(log);
    return 0;
  }
  log('# Benchmarks');
  log('');
  log(`Measured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. Shared, noisy machine: only ratios measured side by side in this run are quoted.`);
  log('');
  lines.push(...(await checkSpeedSection(now)));
  lines.push(...(await packedSeedsSection()));
  lines.push(...(await firstAnswersSection(now)));
  lines.push(...(await watchSection(now)));

  // Fast path against XState, on the same recorded engine steps, alternated to spread the noise.
  const inputs = recordEngineSteps(300);
  const reference = xstateStepper(failClosed);
  const fast = compiledStepper(failClosed);
  const xs: number[] = [];
  const fs: number[] = [];
  for (let r = 0; r < 3; r++) {
    xs.push(timeStepper(reference, inputs, 1));
    fs.push(timeStepper(fast, inputs, 5));
  }
  const xsBest = Math.max(...xs);
  const fsBest = Math.max(...fs);
  log('## Fast path against XState-interpreted transitions');
  log('');
  log(`${fmt(inputs.length)} engine steps recorded from 300 seeded fail-closed worlds, each replayed through both steppers (3 alternated rounds, best of each):`);
  log('');
  log('| stepper | engine steps/s |');
  log('| --- | ---: |');
  log(`| XState \`transition()\` (reference) | ${fmt(xsBest)} |`);
  log(`| compiled fast path | ${fmt(fsBest)} |`);
  log(`| **ratio** | **${(fsBest / xsBest).toFixed(1)}x** |`);
  log('');

  // check: steps per second, and 1 against 2 workers (alternated), on 20,000 seeds and on a long run.
  const short = await workersRounds(CHECK_SEEDS, CHECK_ROUNDS);
  const long = await workersRounds(CHECK_LONG_SEEDS, CHECK_LONG_ROUNDS);
  log('## check: simulated steps per second, 1 against 2 worker threads');
  log('');
  log(`\`check --rules fail-closed --seeds N\`, 1 and 2 workers in alternated rounds (the order switched each round), best of each:`);
  log('');
  log('| seeds | steps | rounds | 1 worker s | 1 worker steps/s | 2 workers s | 2 workers steps/s | **ratio 2/1** | ratio in each round | median |');
  log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
  for (const [n, m] of [
    [CHECK_SEEDS, short],
    [CHECK_LONG_SEEDS, long],
  ] as const) {
    const s = speedup(m.one.map((x) => x.seconds), m.two.map((x) => x.seconds));
    const steps = m.one[0].steps;
    log(`| ${fmt(n)} | ${fmt(steps)} | ${m.one.length} | ${s.oneBest.toFixed(2)} | ${fmt(steps / s.oneBest)} | ${s.twoBest.toFixed(2)} | ${fmt(steps / s.twoBest)} | ${speedupCells(s)} |`);
  }
  log('');
  log(`The second thread's fixed cost (its start-up, then its first seeds run before its compiler has warmed up; measured below) weighs on the run of ${fmt(CHECK_SEEDS)} seeds and is amortised over ${fmt(CHECK_LONG_SEEDS)}: what the long run misses of 2x is lost while the two threads run side by side.`);
  log('');
  // The same comparison as a user makes it: whole processes, every start-up paid on both sides.
  const processes: ProcessRounds[] = [];
  for (const n of PROCESS_SEEDS) processes.push(await checkProcessRounds(n, PROCESS_ROUNDS, now));
  log(`As a user runs it: \`outbox-sim check --swarm-only --seeds N --workers W\` (the small worlds, explored first by default, run on one thread whatever the workers), each run a process of its own timed from its start to its exit (loading the CLI, starting threads, every compiler warming up, writing the report), 1 and 2 workers in ${PROCESS_ROUNDS} alternated rounds:`);
  log('');
  log('| seeds | 1 worker s (best) | 2 workers s (best) | **ratio 2/1, best of each** | ratio in each round | median |');
  log('| ---: | ---: | ---: | ---: | --- | ---: |');
  for (const p of processes) {
    const s = speedup(p.one, p.two);
    log(`| ${fmt(p.seeds)} | ${s.oneBest.toFixed(2)} | ${s.twoBest.toFixed(2)} | ${speedupCells(s)} |`);
  }
  log('');
  // What this machine allows at all: two independent processes side by side against one alone,
  // and an arithmetic loop that allocates nothing, in two threads against one.
  // One worker each (without --workers a check uses every core): the ceiling is two copies that share nothing.
  const alone = await checkProcessesSeconds(1, ['--seeds', '10000', '--workers', '1'], now);
  const pair = await checkProcessesSeconds(2, ['--seeds', '10000', '--workers', '1'], now);
  const loopOne: number[] = [];
  const loopTwo: number[] = [];
  for (let r = 0; r < 2; r++) {
    loopOne.push(await arithmeticThreadsSeconds(1, now));
    loopTwo.push(await arithmeticThreadsSeconds(2, now));
  }
  const loopRatio = (2 * Math.min(...loopOne)) / Math.min(...loopTwo);
  const start = await checkThreadStartCost(CHECK_PLAN, START_COST_SEEDS, now);
  const meanCpu = (runs: readonly CheckTiming[]): number => runs.reduce((a, x) => a + x.cpuSeconds, 0) / runs.length;
  const cpuLine = (n: number, m: { one: readonly CheckTiming[]; two: readonly CheckTiming[] }): string => {
    const a = meanCpu(m.one);
    const b = meanCpu(m.two);
    return `${fmt(n)} seeds: ${a.toFixed(2)} s with 1 worker, ${b.toFixed(2)} s with 2 (${Math.abs((b / a - 1) * 100).toFixed(0)}% ${b >= a ? 'more' : 'less'})`;
  };
  log('What limits the ratio, measured in the same run:');
  log('');
  log(`- CPU time of all the process's threads for the same seeds, mean of the rounds: ${cpuLine(CHECK_SEEDS, short)}; ${cpuLine(CHECK_LONG_SEEDS, long)}. The difference is the new thread's start-up and warm-up, the collector's and compiler's background work that had the idle core to itself with 1 worker, and two threads sharing caches and memory;`);
  log(`- two independent \`check --seeds 10000\` processes started together took ${pair.toFixed(2)} s, one alone ${alone.toFixed(2)} s: ${((2 * alone) / pair).toFixed(2)}x the throughput of one;`);
  log(`- an arithmetic loop that allocates nothing gave ${loopRatio.toFixed(2)}x in two threads against one (2 rounds, best of each): the machine gives two whole cores to work that stays in registers;`);
  log(`- a new \`check\` thread took ${start.firstResultSeconds.toFixed(2)} s from its start to its first result (one seed), loading its code (the bundled worker of \`sim/workers/worker-bundle.ts\`); its start and its first ${fmt(START_COST_SEEDS)} seeds took ${start.newThreadCpuSeconds.toFixed(2)} s of CPU, the same seeds ${start.warmCpuSeconds.toFixed(2)} s on the warm main thread: ${(start.newThreadCpuSeconds - start.warmCpuSeconds).toFixed(2)} s of CPU is the new thread's fixed cost (start-up, then its compiler warming up), paid once per run whatever its size.`);
  log('');

  // explore on fixed configurations.
  const configs: [string, ExploreSizes][] = [
    ['default (1 id, 2 bodies, 2 engines, attempts 2, 1 crash)', EXPLORE_DEFAULTS],
    ['3 engines, attempts 2, 1 crash', { ...EXPLORE_DEFAULTS, engines: 3 }],
  ];
  log('## explore: distinct states per second (one core)');
  log('');
  log('`outbox-sim explore` searches packed states (transitions derived from the object system and memoised); the object-system explorer is the same search on `World` objects. Both side by side, in this process:');
  log('');
  log('| configuration | explorer | states | complete | seconds | states/s | visited set + index bytes/state |');
  log('| --- | --- | ---: | --- | ---: | ---: | ---: |');
  for (const [label, sizes] of configs) {
    const objects = measureExplore(label, sizes, 1_000_000, 'objects');
    const packed = measureExplore(label, sizes, 1_000_000);
    for (const [name, f] of [['objects', objects], ['packed', packed]] as const) {
      log(`| ${label} | ${name} | ${fmt(f.states)} | ${f.complete} | ${f.seconds.toFixed(2)} | ${fmt(f.statesPerSecond)} | ${f.indexBytesPerState.toFixed(1)} |`);
    }
    log(`| | **packed / objects** | | | | **${(packed.statesPerSecond / objects.statesPerSecond).toFixed(1)}x** | |`);
  }
  log('');
  log('Small searches are dominated by one-time work: deriving transitions (each new combination of an event and the slots it reads steps the object system once, for all engines) and listing an engine\'s events in each new situation; the rate rises with the size of the space.');
  log('');

  symmetrySection(log);
  // The partial-order reduction rows are `--only por`'s (minutes of their own): kept as they stand in the file.
  const porKept = existsSync('BENCHMARKS.md') ? sectionOf(readFileSync('BENCHMARKS.md', 'utf8'), POR_HEADING) : null;
  for (const line of porKept ?? []) log(line);

  // Memory at ten million states, in a process of its own so that nothing else is counted (every state stored).
  const m = exploreProcess(['--engines', '5', '--attempts', '4', '--crashes', '5', '--max-states', '10000000', '--no-symmetry']);
  log('## explore: memory at ten million states');
  log('');
  log(`\`outbox-sim explore --engines 5 --attempts 4 --crashes 5 --max-states 10000000 --no-symmetry\` (its own process): ${fmt(m.states)} states in ${m.seconds.toFixed(1)} s (${fmt(m.statesPerSecond)} states/s).`);
  log('');
  log('| per stored state | bytes |');
  log('| --- | ---: |');
  log(`| visited set (64-bit fingerprints) and parent links | ${m.indexBytesPerState.toFixed(1)} |`);
  log(`| frontier at its largest (16-bit words) | ${m.frontierBytesPerState.toFixed(1)} |`);
  log(`| **growth of the whole process (resident set) during the search** | **${m.residentBytesPerState.toFixed(1)}** |`);
  log('');
  log(`Peak resident set of the process: ${fmt(m.residentBytesMax / 2 ** 20)} MiB.`);
  log('');

  for (const line of spinSection()) log(line);
  log('');
  log('Reproduce: `npm run bench` (writes this file).');
  // The finding-power section is `npm run finding-power`'s: kept as it is.
  const kept = existsSync('BENCHMARKS.md') ? keptSection(readFileSync('BENCHMARKS.md', 'utf8')) : null;
  writeFileAtomic('BENCHMARKS.md', kept === null ? `${lines.join('\n')}\n` : withSection(`${lines.join('\n')}\n`, kept));
  return 0;
}
