/**
 * `outbox-sim check`: the main job. Seeds run with a progress bar, then a
 * summary; exit 0 when no property is violated, 1 when one is (each
 * counterexample shrunk and written as a trace, with the command that
 * replays it), 2 on bad input. Ctrl-C or SIGTERM stops the handing out of
 * seeds: the seeds already run are reported (marked interrupted, with the
 * counterexamples found so far shrunk and written) and the exit code is 130
 * or 143.
 */
import { BROKER_MODES } from '../../model/broker.ts';
import type { BrokerMode } from '../../model/types.ts';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { attemptMarksOf } from '../outbox/thresholds.ts';
import { BOUNDS_DEFAULT, emptyShard, fixedOptions, planThresholds, SEEDS_DEFAULT, seedOptions, steppersFor, type CheckPlan, type RawCounterexample, type ShardResult } from '../check.ts';
import type { RunBounds } from '../core/random.ts';
import { runSeedsParallel } from '../workers/pool.ts';
import type { PlanSpec } from '../workers/check-task.ts';
import { writeShardFile } from '../shard-file.ts';
import { buildReport, deepTail, interruptedScope, renderReport, type CheckReport, type UpgradeNote } from '../check-report.ts';
import type { RuleSet } from '../../model/rules.ts';
import { upgradeBase } from '../upgrade-base.ts';
import { writeCounterexample, type RulesPair, type WrittenTrace } from '../outbox/record-trace.ts';
import { describeOptions, PRODUCTION_ATTEMPTS, skewDrawnFor, swarmOptions } from '../outbox/options.ts';
import { loadRules, pinsOf, type LoadedSpecs, type RulePins } from '../rules-loader.ts';
import { probeRuleFiles, refuseUnlikeWitnesses, unrepeatedRun, witnessEvery } from '../rules-state-probe.ts';
import { IN_PROCESS } from '../rule-values.ts';
import { replayCommand as replayTraceCommand, shellQuote } from '../../traces/render/facts.ts';
import { choiceFlag, intFlag } from './errors.ts';
import { UsageError } from '../usage-error.ts';
import { atMostOnceAsked } from './opt-in-property.ts';
import type { Io } from './io.ts';
import { progressBar } from './progress.ts';
import { elapsedSeconds, startClock } from './clock.ts';
import { terminalText } from '../terminal-text.ts';
import { checkFaultError, faultTraced } from './rule-fault.ts';
import { checkOutputFile, checkOutputFolder } from './output-place.ts';
import { settingsBanner, settingsOf } from './world-settings.ts';
import { interruptExitCode, interruption, type StopCause } from '../interrupt.ts';
import { withInterruptSignals } from './signals.ts';
import { endEarlyPool, startPoolEarly } from '../workers/kept-pools.ts';
import { exploreSmallWorld, suiteSpent, threadOrder, smallWorlds, probedWorlds, type SmallWorld, type SmallWorldResult } from '../small-worlds.ts';
import { exploreOptions } from '../outbox/explore-options.ts';
import { SETTINGS } from '../outbox/events/table.ts';
import { smallWorldsReport, type SmallWorldsReport } from '../small-worlds-report.ts';
import { runCheckJob } from '../workers/check-job.ts';
import { chooseWorkers } from '../workers/default-workers.ts';
import { countText } from '../count-text.ts';
import { COVERED_SEEDS, coverageOf, pairCoverage, pairLayout, type FirstSeeds, type PairCoverage } from '../outbox/swarm-coverage.ts';
import type { FixedOptions } from '../outbox/options.ts';
import type { Outcome } from './outcome.ts';
import { idText } from '../outbox/id-shape.ts';

/** Flags of `check` as commander gives them. */
export interface CheckFlags {
  rules?: string;
  oldRules?: string;
  seeds?: string;
  seed?: string;
  broker?: string;
  property?: string;
  json?: boolean;
  out?: string;
  verbose?: boolean;
  quiet?: boolean;
  workers?: string;
  shard?: string;
  shardOut?: string;
  stopOnFirst?: boolean;
  operator?: string;
  attempts?: string;
  swarmOnly?: boolean;
  smallWorldsOnly?: boolean;
  /** False with --no-symmetry: the small worlds store every state, not one per class equal up to renaming pids. */
  symmetry?: boolean;
  /** Check again each time the rule file (or a file it imports) changes, until Ctrl-C (rerun-on-save.ts); the command line's only. */
  watch?: boolean;
  /** False with --no-upgrade: without `--old-rules`, the upgrade from the catalog rule set the checked one extends is left out (it runs in the skewed small worlds and one seed in four by default). */
  upgrade?: boolean;
}

/**
 * Resolves the rule sets named by flags, with what pins their code for the
 * command's threads and later pieces (`PlanSpec.pins`), and what was loaded
 * (for {@link probeRuleFiles}, which the command calls before it runs them).
 */
export async function rulesPair(rules: string | undefined, oldRules: string | undefined): Promise<LoadedPair> {
  const spec = rules ?? 'fail-closed';
  const r = await loadRules(spec);
  const loaded: LoadedSpecs = [[spec, r]];
  const alone: LoadedPair = { rules: r.rules, rulesOrigin: r.origin, oldRules: null, oldRulesOrigin: null, pins: pinsOf(loaded), loaded };
  return oldRules === undefined ? alone : withOldRules(alone, oldRules);
}

/** A pair of rule sets as loaded, with what pins their code (`rulesPair`). */
type LoadedPair = RulesPair & { pins: RulePins; loaded: LoadedSpecs };

/** `pair` (its checked rules alone) with `oldRules` loaded beside: the checked rule set is not loaded again. */
async function withOldRules(pair: LoadedPair, oldRules: string): Promise<LoadedPair> {
  const o = await loadRules(oldRules);
  const loaded: LoadedSpecs = [...pair.loaded, [oldRules, o]];
  return { ...pair, oldRules: o.rules, oldRulesOrigin: o.origin, pins: pinsOf(loaded), loaded };
}

/** `pins` as a plan's optional field: none when no rule file was loaded. */
export function pinsField(pins: RulePins): { pins?: RulePins } {
  return Object.keys(pins).length > 0 ? { pins } : {};
}

/**
 * The command that replays a trace made under `pair` (naming the rule files
 * it needs). A rule set given to the library as a value has no file whose
 * content hash the trace could record, so its trace is re-run `--under` the
 * file that exports it (the command names the file to give).
 */
export function replayCommand(path: string, pair: RulesPair): string {
  if (pair.rulesOrigin.source !== IN_PROCESS) return replayTraceCommand(path, { rules: pair.rulesOrigin, oldRules: pair.oldRulesOrigin });
  return `${replayTraceCommand(path, { rules: { ...pair.rulesOrigin, source: 'catalog' }, oldRules: pair.oldRulesOrigin })} --under ${shellQuote(`<the file that exports ${pair.rulesOrigin.name}>`)}`;
}

/** Parses `--shard I/N` (1-based I). */
export function parseShard(value: string | undefined): { index: number; count: number } | null {
  if (value === undefined) return null;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (m === null) throw new UsageError(`--shard must look like I/N (for example 2/4), got "${value}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new UsageError(`--shard ${value}: give shard I of N with 1 <= I <= N and N >= 1 (for example ${count >= 1 ? `1/${count}` : '1/2'})`);
  return { index, count };
}

/** The seeds [from, to) of shard I of N over seeds [start, start + seeds). */
export function shardRange(start: number, seeds: number, shard: { index: number; count: number } | null): [number, number] {
  if (shard === null) return [start, start + seeds];
  const from = start + Math.floor((seeds * (shard.index - 1)) / shard.count);
  const to = start + Math.floor((seeds * shard.index) / shard.count);
  return [from, to];
}

/** What made a counterexample of the swarm, as its trace's header says: a seed's run of `command` (check, compare), or long life from it (sim/outbox/long-life.ts). */
function originOf(c: RawCounterexample, command = 'check'): string {
  if (c.longLife === undefined) return command;
  return `${command} ${c.longLife.deep ? 'deep cycles' : 'long life'} (record ${idText(c.longLife.id)} round its cycle ${c.longLife.rounds} more times${c.longLife.deep ? deepTail(c.longLife.tailFaultSteps, c.longLife.toward) : ''})`;
}

/** Shrinks and writes the first counterexample of each property, lowest seed first (reusing one already written for the same seed); `command` made them (check, compare). */
export function writeFirstCounterexamples(pair: RulesPair, merged: ShardResult, outDir: string, bounds: RunBounds, written?: FinishExtras['written'], command = 'check', skewPair: RulesPair = pair): WrittenTrace[] {
  const steppers = steppersFor(skewPair.rules, skewPair.oldRules);
  return Object.values(merged.first)
    .sort((a, b) => a.seed - b.seed)
    .map((c) => {
      const early = written?.get(c.violation.property);
      if (early !== undefined && early.seed === c.seed) return early.trace;
      return writeCounterexample(outDir, tracePairOf(skewPair, c.options), steppers, c.seed, c.options, c.events, c.violation.property, originOf(c, command), bounds.healStepsMax);
    });
}

/**
 * The pair a seed's trace is written and replayed with: without the old
 * rules when the seed drew no skew (under the upgrade by default most
 * seeds run the new rule set alone, and their traces name it alone).
 */
export function tracePairOf<P extends RulesPair>(pair: P, options: { skew: boolean }): P {
  return options.skew || pair.oldRules === null ? pair : { ...pair, oldRules: null, oldRulesOrigin: null };
}

/** A check stopped by a signal, or as stale by a save under --watch: which, and how many of its seeds ran. */
export interface InterruptedRun {
  signal: StopCause;
  runs: number;
  seeds: number;
}

/** A check ended at its first violation (`--stop-on-first`): how many of its seeds ran, and the small world that held it (null: a seed did). */
export interface StoppedRun {
  reason: 'first-violation';
  runs: number;
  seeds: number;
  smallWorld: string | null;
}

/** What a check found and wrote before its summary, and how it ended early. */
export interface FinishExtras {
  /** `--stop-on-first`: the run ended at its first violation. */
  stopped?: StoppedRun | null;
  /** Counterexamples already shrunk and written (answer first), by property: reused when they are still the first. */
  written?: ReadonlyMap<string, { seed: number; trace: WrittenTrace }>;
  /** The small worlds, whether the swarm ran, its pair coverage (absent: the swarm alone, as `merge` without coverage). */
  parts?: CheckParts;
  /** Traces of violations found in seeds or small worlds the report does not count (an interrupt or a stop ended the suite first): kept, and named. */
  keptOutside?: readonly string[];
  /** The small worlds ran the upgrade from the rule set the checked one extends (`upgradeByDefault`) in this many skewed worlds, and the swarm in `upgradeSeeds` of its seeds; the pair is without it. */
  upgradeWorlds?: number;
  upgradeSeeds?: number;
  /** The pair with the upgrade's old rules, which the seeds that drew skew ran and are written with. */
  skewPair?: RulesPair;
  /** A shard, or a merge of shards: the small worlds were not run; the command that runs them (`CheckReport.smallWorldsNotRun`). */
  smallWorldsNotRun?: string;
}

/**
 * The command that runs the small worlds a sharded check leaves out (shards
 * run the swarm's seeds only): `check --small-worlds-only` with the
 * shards' rules and options. Under at-most-once the seeds' broker log came
 * from the property (`seedsBroker`), not a flag: left to the suite, which
 * has its broker-log world.
 */
export function smallWorldsCommand(spec: Pick<PlanSpec, 'rules' | 'oldRules' | 'broker' | 'settings' | 'atMostOnce' | 'operatorActionsMax' | 'attemptsMax' | 'skewDrawn'>): string {
  const words = ['npx outbox-sim check', `--rules ${shellQuote(spec.rules)}`];
  // The upgrade by default runs in the small worlds without a flag.
  if (spec.oldRules !== null && spec.skewDrawn !== true) words.push(`--old-rules ${shellQuote(spec.oldRules)}`);
  if (spec.broker !== null && !(spec.atMostOnce === true && spec.broker === 'log')) words.push(`--broker ${spec.broker}`);
  for (const s of SETTINGS) {
    const value = spec.settings?.[s.name];
    if (value !== undefined) words.push(`${s.flag} ${value}`);
  }
  if (spec.operatorActionsMax !== undefined) words.push(`--operator ${spec.operatorActionsMax}`);
  // As the shards were run (the small worlds keep their own attempts limits, and the header says so).
  if (spec.attemptsMax !== undefined) words.push(`--attempts ${spec.attemptsMax}`);
  if (spec.atMostOnce === true) words.push('--property at-most-once');
  words.push('--small-worlds-only');
  return words.join(' ');
}

/** What a check ran besides the swarm's seeds: the small worlds, whether the swarm ran, its pair coverage. */
export interface CheckParts {
  smallWorlds: SmallWorldsReport | null;
  swarm: boolean;
  coverage: PairCoverage | null;
  seedStart?: number;
}

/** The line that heads the summary of a check ended at its first violation. */
function stoppedLine(s: StoppedRun): string {
  if (s.smallWorld !== null) {
    const rest = s.seeds > 0 ? ` and the swarm's ${countText(s.seeds)} seeds were` : ' was';
    return `STOPPED AT THE FIRST VIOLATION (--stop-on-first): found in small world "${terminalText(s.smallWorld)}"; the rest of the suite${rest} not run`;
  }
  return `STOPPED AT THE FIRST VIOLATION (--stop-on-first): ${countText(s.runs)} of ${countText(s.seeds)} seeds ran; the rest were not run`;
}

/** The line that heads the summary of an interrupted check: what of it ran. */
function interruptedLine(i: InterruptedRun, sw: SmallWorldsReport | null): string {
  const cause = i.signal === 'save' ? 'a watched file was saved' : i.signal;
  return `INTERRUPTED (${cause}): ${interruptedScope(i, sw)} ran; this summary covers what ran only, not a verdict on the rest`;
}

/** What `check --json` (and `merge --json`) prints: the report, and whether a signal cut the run short. */
export type CheckResult = CheckReport & {
  interrupted: InterruptedRun | null;
  stopped?: StoppedRun | null;
  /**
   * Traces of violations found in seeds or small worlds this report does not
   * count, because an interrupt or `--stop-on-first` ended the suite before
   * their place in it (with several workers they run beside it): each
   * replays; absent when there are none.
   */
  keptOutside?: string[];
};

/**
 * The upgrade from the rule set the checked one extends, when it names
 * another and no `--old-rules` was given (docs/rules.md, 'Version skew'): a change is deployed
 * from something, most often by a rolling deploy, and some flaws only show
 * with both versions running (a key format changed, a field renamed).
 * `checkedIn`: the check ran it, in that many skewed small worlds, and
 * `seeds`: in that many of the swarm's seeds (those that drew skew); else
 * the note says it was left out, with the command that checks it.
 */
export function upgradeOf(pair: RulesPair, checkedIn: number | null = null, seeds: number | null = null): { upgrade?: UpgradeNote } {
  const from = pair.rules.extends;
  const origin = pair.rulesOrigin;
  const rules = origin.source === IN_PROCESS ? `<the file that exports ${origin.name}>` : origin.source === 'catalog' ? origin.name : origin.source;
  // A user's rule set written whole: no older version is known (a catalog rule set is the baseline itself).
  if (pair.oldRules === null && from === undefined && origin.source !== 'catalog') return { upgrade: { from: null, checked: false, command: `npx outbox-sim check --rules ${shellQuote(rules)} --old-rules <the rules deployed today>` } };
  if (pair.oldRules !== null || from === undefined || from === pair.rules.name) return {};
  const both = `npx outbox-sim check --rules ${shellQuote(rules)} --old-rules ${shellQuote(from)}`;
  // Checked: the command that checks the upgrade by itself, for the skewed worlds a suite's bound of states cut.
  if (checkedIn !== null || seeds !== null) return { upgrade: { from, checked: true, worlds: checkedIn ?? 0, ...(seeds !== null ? { seeds } : {}), command: `${both} --small-worlds-only` } };
  return { upgrade: { from, checked: false, command: upgradeBase(pair.rules) !== null ? both : null } };
}

/**
 * The rule set whose upgrade a check runs in its small worlds, beside the
 * worlds of the checked one alone, and in the seeds that draw skew
 * (`upgradeBase`: the catalog rule set it extends), unless `--old-rules`
 * names an older version or `--no-upgrade` leaves it out. Whatever halves
 * run: a seed runs as it ran in a whole check under `--seed` too.
 */
export function upgradeByDefault(flags: CheckFlags, rules: RuleSet): string | null {
  if (flags.oldRules !== undefined || flags.upgrade === false) return null;
  return upgradeBase(rules);
}

/** Writes the counterexamples, then reports; an interrupted run is marked so (JSON: `interrupted`) and exits 130 or 143. */
export function finishCheck(pair: RulesPair, merged: ShardResult, outDir: string, bounds: RunBounds, seconds: number, json: boolean, io: Io, interrupted: InterruptedRun | null = null, extras: FinishExtras = {}): number {
  return finishCheckOutcome(pair, merged, outDir, bounds, seconds, json, io, interrupted, extras).code;
}

/** {@link finishCheck}, with the report it printed (or would have printed with `--json`). */
export function finishCheckOutcome(pair: RulesPair, merged: ShardResult, outDir: string, bounds: RunBounds, seconds: number, json: boolean, io: Io, interrupted: InterruptedRun | null = null, extras: FinishExtras = {}): Outcome<CheckResult> {
  const written = writeFirstCounterexamples(pair, merged, outDir, bounds, extras.written, 'check', extras.skewPair ?? pair);
  const stopped = extras.stopped ?? null;
  const built = buildReport(merged, written, {
      rules: pair.rules.name,
      oldRules: pair.oldRules?.name ?? null,
      // The upgrade by default's seeds ran old engines: their kinds (an upgrade) are counted as under --old-rules.
      skewed: (extras.upgradeSeeds ?? 0) > 0,
      seconds,
      replayCommand: (path) => replayCommand(path, pair),
      ...extras.parts,
    });
  const report: CheckResult = {
    ...built,
    // An interrupted run is no pass, whatever it found so far (`ok` false; `interrupted` says how far it got).
    ok: built.ok && interrupted === null,
    ...upgradeOf(pair, extras.upgradeWorlds ?? null, extras.upgradeSeeds ?? null),
    interrupted,
    ...(extras.stopped !== undefined ? { stopped } : {}),
    ...(extras.keptOutside !== undefined && extras.keptOutside.length > 0 ? { keptOutside: [...extras.keptOutside] } : {}),
    ...(extras.smallWorldsNotRun !== undefined ? { smallWorldsNotRun: { command: extras.smallWorldsNotRun } } : {}),
  };
  if (json) io.out(JSON.stringify(report));
  else {
    if (interrupted !== null) io.out(interruptedLine(interrupted, report.smallWorlds));
    if (stopped !== null) io.out(stoppedLine(stopped));
    if (report.keptOutside !== undefined) io.out(keptOutsideLine(report.keptOutside));
    for (const line of renderReport(report)) io.out(line);
  }
  const code = interrupted !== null ? interruptExitCode(interrupted.signal) : report.ok ? 0 : 1;
  return { code, result: report };
}

export async function checkCommand(flags: CheckFlags, io: Io): Promise<number> {
  const once = async (): Promise<number> => (await runCheck(flags, io)).code;
  if (flags.watch !== true) return withInterruptSignals(once);
  const { rerunOnSave } = await import('./rerun-on-save.ts');
  return withInterruptSignals(() => rerunOnSave('check', flags, io, once));
}

/** The whole of `check` but the signal handlers: the CLI's command and the library's `check` (sim/api/) both run it. */
export async function runCheck(flags: CheckFlags, io: Io): Promise<Outcome<CheckResult>> {
  const alone = await rulesPair(flags.rules, flags.oldRules);
  refuseConflictingFlags(flags);
  const upgradeFrom = upgradeByDefault(flags, alone.rules);
  const pair = upgradeFrom === null ? alone : await withOldRules(alone, upgradeFrom);
  try {
    return await checkPair(pair, flags, io, upgradeFrom);
  } catch (err) {
    // A run that did not repeat itself: with a rule file, its decisions kept state (rules-state-probe.ts).
    throw unrepeatedRun(pair.loaded, err) ?? err;
  } finally {
    // Threads started before the job (checkPair) that no job took, after an error: ended.
    await endEarlyPool();
  }
}

/**
 * The header's words for `--attempts N`: the seeds' limit, and in plain
 * words that the small worlds keep their own (their state counts grow with
 * the limit; each was sized for its own, 1-3).
 */
export function attemptsBanner(attemptsMax: number | undefined, swarm: boolean, worlds: readonly SmallWorld[]): string {
  if (attemptsMax === undefined) return '';
  const seeds = swarm ? `; attempts limit ${attemptsMax} for every seed` : '';
  if (worlds.length === 0) return seeds;
  const limits = worlds.map((w) => w.sizes.attemptsMax);
  const [lo, hi] = [Math.min(...limits), Math.max(...limits)];
  return `${seeds}; the small worlds keep their own attempts limits, ${lo === hi ? lo : `${lo}-${hi}`}, not --attempts ${attemptsMax}`;
}

/** The header's broker: fixed, drawn per seed, or log for the seeds of --property at-most-once (the small worlds keep each its own). */
function brokerBanner(broker: BrokerMode | null, seedsBroker: BrokerMode | null, parts: { smallWorlds: boolean; swarm: boolean }): string {
  if (broker !== null || seedsBroker === null) return broker ?? 'drawn per seed';
  if (!parts.swarm) return 'each small world its own';
  return `${seedsBroker} for the seeds (--property at-most-once reads its log)${parts.smallWorlds ? ', each small world its own' : ''}`;
}

/**
 * Flags that say opposite things, or one that has nothing to act on: each
 * ignored without a word before (an audit: `--seeds 10 --seed 3` ran one
 * seed, `--shard-out` without `--shard` wrote nothing, `--quiet --verbose`
 * dropped `--verbose`), now bad input.
 */
export function refuseConflictingFlags(flags: CheckFlags): void {
  if (flags.oldRules !== undefined && flags.upgrade === false) throw new UsageError('--old-rules runs an older version beside the rules and --no-upgrade leaves the upgrade out: give one of them');
  if (flags.seed !== undefined && flags.seeds !== undefined) throw new UsageError('--seed S runs that one seed; --seeds N runs N seeds from 1: give one of them');
  if (flags.shardOut !== undefined && flags.shard === undefined) throw new UsageError('--shard-out FILE writes the result of a shard: give --shard I/N too (or leave --shard-out out)');
  if (flags.quiet === true && flags.verbose === true) throw new UsageError('--quiet prints only the summary and --verbose prints more: give one of them');
}

/**
 * `upgradeFrom`: the rule set whose upgrade the small worlds run by default
 * (`upgradeByDefault`), the old rules of `pair`; the swarm then runs the
 * checked rule set alone, as without it.
 */
async function checkPair(pair: LoadedPair, flags: CheckFlags, io: Io, upgradeFrom: string | null): Promise<Outcome<CheckResult>> {
  const single = flags.seed !== undefined;
  const seedStart = intFlag('--seed', flags.seed, 1);
  const seeds = single ? 1 : intFlag('--seeds', flags.seeds, SEEDS_DEFAULT, 1, 10_000_000);
  const broker: BrokerMode | null = flags.broker === undefined ? null : choiceFlag('--broker', flags.broker, BROKER_MODES, 'id-ok');
  const settings = settingsOf(flags, pair.oldRules !== null);
  const anySetting = Object.keys(settings).length > 0;
  const atMostOnce = atMostOnceAsked(flags.property, broker);
  // The seeds' broker: under --property at-most-once without --broker, log, the one mode that keeps what the property reads
  // (docs/properties.md, 'at-most-once (always, opt-in)'); drawn per seed it never came up, and the seeds were a clean verdict no run could break.
  const seedsBroker: BrokerMode | null = broker ?? (atMostOnce ? 'log' : null);
  const operatorActionsMax = flags.operator === undefined ? undefined : intFlag('--operator', flags.operator, 0, 0, 100);
  const attemptsMax = flags.attempts === undefined ? undefined : intFlag('--attempts', flags.attempts, 1, 1, 100);
  const shard = parseShard(flags.shard);
  const parts = checkParts(flags, shard !== null);
  const outDir = flags.out ?? 'traces/found';
  const [from, to] = shardRange(seedStart, seeds, shard);
  // With a rule file, some seeds leave a witness of their run, run again at the end in a fresh copy of the file (rules-state-probe.ts).
  const witnessed = Object.keys(pair.pins).length > 0 ? { witnessEvery: witnessEvery(from, to) } : {};
  // The upgrade by default runs in the seeds that draw skew (one in four), the old rules beside the new there.
  const spec: PlanSpec = { rules: flags.rules ?? 'fail-closed', oldRules: flags.oldRules ?? upgradeFrom, ...(upgradeFrom !== null ? { skewDrawn: true as const } : {}), ...pinsField(pair.pins), ...witnessed, broker: seedsBroker, ...(anySetting ? { settings } : {}), ...(atMostOnce ? { atMostOnce } : {}), ...(operatorActionsMax !== undefined ? { operatorActionsMax } : {}), ...(attemptsMax !== undefined ? { attemptsMax } : {}), bounds: BOUNDS_DEFAULT };
  // Without --workers: the machine's idle cores for a job worth threads (sim/workers/default-workers.ts).
  const inProcessRules = pair.rulesOrigin.source === IN_PROCESS || pair.oldRulesOrigin?.source === IN_PROCESS;
  const choice = flags.workers === undefined ? chooseWorkers({ smallWorlds: parts.smallWorlds, seeds: parts.swarm ? to - from : 0, inProcessRules }) : null;
  const workers = intFlag('--workers', flags.workers, choice?.workers ?? 1, 1, 64);
  // The header says when the machine's load lowered the default (a user may want --workers).
  const busy = choice?.busy ?? null;
  const workersNote = busy !== null ? ` (load ${busy.load.toFixed(1)} on ${busy.cores} cores; --workers N to choose)` : '';
  const shardPath = shard === null ? null : (flags.shardOut ?? join('traces', 'shards', `${pair.rules.name}-shard-${shard.index}-of-${shard.count}.json`));
  // Where the results go is checked before the seeds run, not after.
  checkOutputFolder('--out', outDir);
  if (shardPath !== null) checkOutputFile('--shard-out', shardPath);
  const fixed = fixedOfSpec(spec);
  // The pair without the old rules of an upgrade by default: the seeds that drew no skew write and replay with it, and the report's upgrade note is of it.
  const seedPair = upgradeFrom === null ? pair : { ...pair, oldRules: null, oldRulesOrigin: null };

  // --quiet: no header and no progress, only the summary (and what went wrong).
  const quiet = flags.quiet === true;
  if (!flags.json && !quiet) {
    const where = [...(parts.smallWorlds ? ['the small worlds'] : []), ...(parts.swarm ? ['one seed in four'] : [])].join(' and ');
    const olds = upgradeFrom !== null ? `, and the upgrade from ${terminalText(upgradeFrom)} (which it extends) in ${where}` : pair.oldRules ? `, old rules ${terminalText(pair.oldRules.name)}` : '';
    io.out(`outbox-sim check: rules ${terminalText(pair.rules.name)}${olds}; ${parts.swarm ? `seeds ${from}..${to - 1}${shard ? ` (shard ${shard.index}/${shard.count} of ${seedStart}..${seedStart + seeds - 1})` : ''}` : 'no swarm'}; broker ${brokerBanner(broker, seedsBroker, parts)}${settingsBanner(settings, false)}${operatorActionsMax === undefined ? '' : `; operator actions ${operatorActionsMax}`}${attemptsBanner(attemptsMax, parts.swarm, parts.smallWorlds ? smallWorlds(pair.oldRules !== null) : [])}; ${workers} worker${workers === 1 ? '' : 's'}${workersNote}`);
  }
  // The upgrade by default: its skewed worlds after the rule set's own, which answer the question asked first. The
  // body shapes the rule set's decisions read (body-probe.ts) ask its decisions: after the header's first line,
  // which then reaches the terminal even if one hangs.
  // The job's threads start loading now, while this thread probes (kept-pools.ts, startPoolEarly): the job takes them.
  if (workers > 1) startPoolEarly(workers - 1, parts.swarm ? spec : { rules: spec.rules, oldRules: flags.oldRules ?? upgradeFrom, broker: null, bounds: BOUNDS_DEFAULT });
  const worlds = parts.smallWorlds ? probedWorlds(pair, { broker, ...(anySetting ? { settings } : {}), ...(atMostOnce ? { atMostOnce } : {}) }, upgradeFrom !== null) : [];
  if (!flags.json && !quiet) {
    if (parts.smallWorlds) io.out(`  small worlds: ${worlds.length} bounded worlds explored completely first (${worlds.map((w) => w.name).join('; ')})`);
    if (!parts.swarm) {
      // Only the small worlds run.
    } else if (single || flags.verbose) {
      // As the seed runs them: steered where the rule set's probe saw its decisions answer otherwise (clock, bodies, ids).
      const { rules: _rules, oldRules: _oldRules, pins: _pins, ...shared } = spec;
      const plan: CheckPlan = { ...shared, rules: pair.rules, oldRules: pair.oldRules, seedStart: from, seeds: 1 };
      io.out(`  seed ${from} options: ${describeOptions(seedOptions(plan, fixed, planThresholds(plan, fixed), from))}`);
    } else {
      io.out(`  swarm: each seed draws engines 1-3, ids 1-2, bodies/id 1-3 (in one seed in four of two ids, the same bodies for both, and, drawn apart, in one in four, ids named alike, and, drawn apart, in one in eight, ids that differ only by case, normalisation, a trailing space or their last of 200 characters; in one seed in eight, every body its letter and a shape: characters outside the BMP, combining marks, control and markup characters, or 1,025-1,048,577 characters), ${attemptsMax === undefined ? `attempts limit 1-5 (or ${PRODUCTION_ATTEMPTS.min}-${PRODUCTION_ATTEMPTS.max} in one seed in eight, as production runs)` : `attempts limit ${attemptsMax} (--attempts)`}, broker mode, operator budget (0-3, or 8-12 in one seed in eight) and fault mix; seeds 1-${COVERED_SEEDS} from covering arrays (every pair of feature values) (see one with --seed S)`);
    }
  }
  // After the header, which then reaches the terminal even if the probe meets a decision that hangs.
  await probeRuleFiles(pair.loaded);
  const clock = startClock(io);
  const stopOnFirst = flags.stopOnFirst === true;
  // --json and --quiet print nothing before the summary: their counterexamples are shrunk at the end, the seeds not held up meanwhile.
  const answerFirst = !flags.json && !quiet;
  const suiteIo = flags.json === true || quiet ? { ...io, tty: false } : io;
  const suiteHow = { announce: answerFirst, stopOnFirst, symmetry: flags.symmetry !== false };
  // Answer first: each property's first counterexample is shrunk, written and printed as soon as a task
  // brings it back, while the remaining seeds run; the summary reuses it when it stays the lowest seed.
  const early = new Map<string, { seed: number; trace: WrittenTrace }>();
  const steppers = steppersFor(pair.rules, pair.oldRules);
  const announce = (r: ShardResult): void => {
    for (const c of Object.values(r.first).sort((a, b) => a.seed - b.seed)) {
      const p = c.violation.property;
      const have = early.get(p);
      if (have !== undefined && have.seed <= c.seed) continue;
      const tracePair = tracePairOf(pair, c.options);
      const trace = writeCounterexample(outDir, tracePair, steppers, c.seed, c.options, c.events, p, originOf(c), BOUNDS_DEFAULT.healStepsMax);
      // With several workers a lower seed may come back later: its trace replaces the one written first,
      // so the traces left are those of one worker.
      const replaced = have !== undefined && have.trace.path !== trace.path ? have : null;
      if (replaced !== null) rmSync(replaced.trace.path, { force: true });
      early.set(p, { seed: c.seed, trace });
      // The file printed before is gone: say so, so that its replay line above is not followed.
      const replaces = replaced !== null ? `; it replaces seed ${replaced.seed}'s trace printed above` : '';
      io.out(`  found after ${elapsedSeconds(clock).toFixed(2)} s: ${terminalText(p)} at seed ${c.seed} (${terminalText(trace.violation.detail)}); trace ${terminalText(trace.path)} (${trace.stepsAfter} steps)${replaces}`);
      io.out(`    replay: ${replayCommand(trace.path, tracePair)}`);
    }
  };
  const seedsIo = flags.json === true || quiet ? { ...io, tty: false } : io;
  let smallReport: SmallWorldsReport | null;
  let merged: ShardResult;
  // The worker threads' end, waited for after the report (check-job.ts, `threadsEnded`).
  let threadsEnded: Promise<void> = Promise.resolve();
  // Traces written for what the report leaves out (runThreaded): kept, and named in the summary.
  let keptOutside: string[] = [];
  if (workers > 1) {
    // Both halves on one pool, the swarm running while the suite runs (sim/workers/check-job.ts).
    let dropped: boolean;
    ({ smallReport, merged, dropped, threadsEnded, keptOutside } = await runThreaded(pair, spec, flags.oldRules ?? upgradeFrom, parts.smallWorlds ? worlds : [], parts.swarm, from, to, workers, outDir, suiteIo, seedsIo, clock, suiteHow, answerFirst ? announce : null));
    // Seeds dropped (an interrupt during the suite): the report counts none of them, as on one thread. The
    // violations already printed for seeds that ran beside the suite stay found: their traces are kept, and named.
    if (dropped) {
      keptOutside.unshift(...[...early.values()].map((e) => e.trace.path));
      early.clear();
    }
  } else {
    smallReport = parts.smallWorlds ? await runSmallWorlds(pair, worlds, outDir, suiteIo, clock, suiteHow) : null;
    const suiteStopped = stopOnFirst && smallReport !== null && smallReport.worlds.some((w) => w.violations.length > 0);
    const signalBefore = interruption();
    const bar = progressBar(!parts.swarm || suiteStopped || signalBefore !== null ? { ...io, tty: false } : seedsIo, 'seeds', to - from);
    // An interrupt during the small worlds stops the check there: no seed runs.
    merged = parts.swarm && !suiteStopped && signalBefore === null
      ? await runSeedsParallel(spec, from, to, 1, (done) => bar.update(done), { interruptible: true, stopOnViolation: stopOnFirst, ...(answerFirst ? { onViolation: announce } : {}) })
      : emptyShard();
    bar.stop();
  }
  // The report first; then the worker threads' end, which on a busy machine may take seconds (check-job.ts).
  try {
    // --stop-on-first: a violation in a small world ends the check there, before the swarm.
    const stoppedIn = stopOnFirst && smallReport !== null ? (smallReport.worlds.find((w) => w.violations.length > 0)?.name ?? null) : null;
    const swarmRuns = parts.swarm && stoppedIn === null;
    if (merged.fault !== undefined) throw checkFaultError(tracePairOf(pair, merged.fault.options), steppers, merged.fault, outDir, 'check');
    const signal = interruption();
    const interrupted = signal === null ? null : { signal, runs: merged.runs, seeds: parts.swarm ? to - from : 0 };
    // The witnesses run as the seeds ran: the upgrade's old rules in those that drew skew, the clock's marks, body shapes and id shapes of the check's probe.
    const deep = merged.longLife?.deep;
    if (interrupted === null) await refuseUnlikeWitnesses(pair.loaded, { ...spec, ...(deep?.clock ? { clock: deep.clock } : {}), ...(deep?.bodies ? { bodies: deep.bodies } : {}), ...(deep?.ids ? { ids: deep.ids } : {}), ...(deep?.thresholds ? { attempts: attemptMarksOf(deep.thresholds) } : {}) }, merged.witnesses, pair.oldRules);
    if (interrupted !== null && shardPath !== null) {
      // A partial shard would merge as if it were whole.
      if (!flags.json) io.out(`  shard result not written to ${terminalText(shardPath)}: the run was interrupted (re-run this shard)`);
    } else if (shard !== null && shardPath !== null) {
      const path = shardPath;
      writeShardFile(path, { pair, spec, seedStart, seeds, shard, from, to, seconds: elapsedSeconds(clock), result: merged });
      if (!flags.json && !quiet) io.out(`  shard result written to ${terminalText(path)} (combine with: npx outbox-sim merge ${terminalText(join(dirname(path), '*.json'))})`);
    }
    const stopped: StoppedRun | null = !stopOnFirst
      ? null
      : stoppedIn !== null
        ? { reason: 'first-violation', runs: 0, seeds: parts.swarm ? to - from : 0, smallWorld: stoppedIn }
        : Object.keys(merged.first).length > 0
          ? { reason: 'first-violation', runs: merged.runs, seeds: to - from, smallWorld: null }
          : null;
    // Over the seeds that ran: all of them, or after an interrupt or a stop about the first `runs` (the pool hands seeds out in order).
    const coverage = swarmRuns ? swarmCoverage(spec, from, interrupted === null && stopped === null ? to : Math.min(to, from + merged.runs), merged.exercised) : null;
    return finishCheckOutcome(seedPair, merged, outDir, BOUNDS_DEFAULT, elapsedSeconds(clock), flags.json === true, io, interrupted, {
      ...(stopOnFirst ? { stopped } : {}),
      ...(upgradeFrom !== null ? { ...(parts.smallWorlds ? { upgradeWorlds: worlds.filter((w) => w.sizes.skew).length } : {}), ...(swarmRuns ? { upgradeSeeds: skewedSeeds(from, interrupted === null && stopped === null ? to : Math.min(to, from + merged.runs)) } : {}), skewPair: pair } : {}),
      ...(shard !== null ? { smallWorldsNotRun: smallWorldsCommand(spec) } : {}),
      written: early,
      keptOutside,
      parts: { smallWorlds: smallReport, swarm: swarmRuns, coverage, seedStart: from },
    });
  } finally {
    await threadsEnded;
  }
}

/**
 * The line naming the traces of violations found where the report does not
 * count: seeds that ran beside the small worlds when an interrupt during
 * the suite left every seed out (as one thread would have run none), and
 * worlds searched to their end past the place where an interrupt or
 * `--stop-on-first` ended the suite. Each file is a counterexample that
 * replays; only the report leaves it out.
 */
export function keptOutsideLine(paths: readonly string[]): string {
  const n = paths.length;
  return `WARNING: ${n === 1 ? 'a violation was' : `${n} violations were`} found in seeds or small worlds this report does not count (the suite ended before their turn); ${n === 1 ? 'its trace replays' : 'their traces replay'}: ${paths.map(terminalText).join(', ')}`;
}

/**
 * Which pairs of feature values the seeds [from, to) of a plan cover (the
 * same for a whole run and its merged shards): drawn, and with the shards'
 * table of first seeds (`ShardResult.exercised`) exercised.
 */
export function swarmCoverage(spec: PlanSpec, from: number, to: number, exercised?: FirstSeeds): PairCoverage {
  const fixed = fixedOfSpec(spec);
  const drawn = pairCoverage(from, to, fixed, (seed) => swarmOptions(seed, fixed));
  const layout = pairLayout(fixed);
  return exercised === undefined || exercised.length !== layout.pairs ? drawn : { ...drawn, exercised: coverageOf(layout, exercised, from, to) };
}

/** The options a plan's spec fixes for every seed (check.ts, `fixedOptions`: the same, from the spec a task carries). */
export function fixedOfSpec(spec: PlanSpec): FixedOptions {
  return fixedOptions({ ...spec, oldRules: spec.oldRules });
}

/** How many of seeds [from, to) draw skew under the upgrade by default (options.ts, `skewDrawnFor`). */
export function skewedSeeds(from: number, to: number): number {
  let count = 0;
  for (let seed = from; seed < to; seed++) if (skewDrawnFor(seed)) count++;
  return count;
}

/**
 * Which halves a check runs: the small worlds, then the swarm, unless a
 * flag selects one. One seed (`--seed`) and a shard (`--shard`) run the
 * swarm only: the suite is not split between shards.
 */
export function checkParts(flags: Pick<CheckFlags, 'swarmOnly' | 'smallWorldsOnly' | 'seed' | 'seeds'>, sharded: boolean): { smallWorlds: boolean; swarm: boolean } {
  if (flags.swarmOnly === true && flags.smallWorldsOnly === true) throw new UsageError('--swarm-only and --small-worlds-only exclude each other (give neither to run both)');
  if (flags.smallWorldsOnly === true) {
    const seedFlag = flags.seed !== undefined ? '--seed' : flags.seeds !== undefined ? '--seeds' : sharded ? '--shard' : null;
    if (seedFlag !== null) throw new UsageError(`--small-worlds-only runs no seed: ${seedFlag} has nothing to do`);
    return { smallWorlds: true, swarm: false };
  }
  return { smallWorlds: flags.swarmOnly !== true && flags.seed === undefined && !sharded, swarm: true };
}

/** How the suite is searched and told about: answer first, `--stop-on-first`, symmetry. */
interface SuiteHow {
  announce: boolean;
  stopOnFirst: boolean;
  symmetry: boolean;
}

/**
 * The suite's search of one world on this thread (with the world's progress
 * on `bar`; `stop` ends it early beside an interrupt), and the lines that
 * announce a world's violations (answer first). A decision that breaks its
 * contract in a world ends the check as explore ends (one line, a trace of
 * the path to the state being expanded).
 */
function suiteSearch(pair: RulesPair, worlds: readonly SmallWorld[], outDir: string, io: Io, clock: ReturnType<typeof startClock>, how: SuiteHow, bar: ReturnType<typeof progressBar>) {
  const steppers = steppersFor(pair.rules, pair.oldRules);
  const searchHere = (i: number, stop?: () => string | null, claim?: () => boolean): SmallWorldResult => {
    const w = worlds[i];
    const run = {
      outDir,
      replayCommand: (path: string) => replayCommand(path, pair),
      now: () => elapsedSeconds(clock),
      stopReason: () => (interruption() !== null ? 'interrupted' : (stop?.() ?? null)),
      symmetry: how.symmetry,
      onProgress: (j: number, states: number) => bar.update(j, `${worlds[j].name}: ${countText(states)} states`),
      ...(claim ? { claim } : {}),
    };
    const tracePair = w.sizes.skew ? pair : { ...pair, oldRules: null, oldRulesOrigin: null };
    return faultTraced(() => exploreSmallWorld(pair, steppers, w, i, run), { pair: tracePair, steppers, options: exploreOptions(w.sizes), outDir, origin: `check small world "${w.name}"`, world: w.name });
  };
  const announce = (r: SmallWorldResult): void => {
    if (!how.announce) return;
    for (const v of r.violations) {
      io.out(`  found after ${elapsedSeconds(clock).toFixed(2)} s: ${terminalText(v.property)} in small world "${r.name}" (${terminalText(v.detail)}); trace ${terminalText(v.path)} (${v.steps} steps)`);
      io.out(`    replay: ${terminalText(v.replay)}`);
    }
  };
  return { searchHere, announce };
}

/**
 * Explores the suite on this thread with a progress bar over its worlds; an
 * interrupt stops the world being searched and the suite, and so does a
 * violation under `--stop-on-first`. With `announce` (answer first), a
 * world's violations are printed with their replay commands as soon as the
 * world is searched.
 */
async function runSmallWorlds(pair: RulesPair, worlds: SmallWorld[], outDir: string, io: Io, clock: ReturnType<typeof startClock>, how: SuiteHow): Promise<SmallWorldsReport> {
  const start = elapsedSeconds(clock);
  const bar = progressBar(io, 'small worlds', worlds.length);
  const { searchHere, announce } = suiteSearch(pair, worlds, outDir, io, clock, how, bar);
  const results: SmallWorldResult[] = [];
  for (const [i, w] of worlds.entries()) {
    // A search is one synchronous loop: between worlds the event loop gets a turn, so that a signal's handler runs.
    await new Promise((resolve) => setImmediate(resolve));
    if (interruption() !== null) break;
    bar.update(i, w.name);
    const r = searchHere(i);
    results.push(r);
    announce(r);
    if (how.stopOnFirst && r.violations.length > 0) break;
    if (suiteSpent(results)) break;
  }
  bar.update(results.length, 'done');
  bar.stop();
  return smallWorldsReport(results, elapsedSeconds(clock) - start, worlds.length);
}

/**
 * `check --workers N` (N > 1): the suite's worlds and (with `swarm`) the
 * seeds [from, to) of `spec` as one job on N workers, its threads loading
 * the rule sets `spec` names (the worlds' old rules `worldsOldRules`, which
 * an upgrade by default gives the worlds and not the seeds). The suite is
 * reported as on one thread: its progress bar, then each world's violations
 * as it is given out in suite order. The seeds' violations are printed as
 * they come (answer first: the swarm's first answer comes while the suite
 * still runs), except under `--stop-on-first`, where they wait for the
 * suite (its answer comes first, as on one thread); the seeds' progress bar
 * starts when the suite ends. When the suite ends the check (a violation
 * under `--stop-on-first`, or an interrupt) the seeds are dropped and
 * reported as not run, as on one thread (`dropped`: the caller says which
 * traces it printed for them are kept outside the report).
 */
async function runThreaded(pair: RulesPair, spec: PlanSpec, worldsOldRules: string | null, worlds: SmallWorld[], swarm: boolean, from: number, to: number, workers: number, outDir: string, suiteIo: Io, seedsIo: Io, clock: ReturnType<typeof startClock>, how: SuiteHow, announceSeeds: ((r: ShardResult) => void) | null): Promise<{ smallReport: SmallWorldsReport | null; merged: ShardResult; dropped: boolean; threadsEnded: Promise<void>; keptOutside: string[] }> {
  const suiteBar = progressBar(worlds.length > 0 ? suiteIo : { ...suiteIo, tty: false }, 'small worlds', worlds.length);
  const { searchHere, announce } = suiteSearch(pair, worlds, outDir, suiteIo, clock, how, suiteBar);
  /** Whether the seeds count: null until the suite ends. */
  let seedsCount: boolean | null = null;
  let seedsBar: ReturnType<typeof progressBar> | null = null;
  let seedsDone = 0;
  const waiting: ShardResult[] = [];
  let violated = false;
  const result = await runCheckJob(
    { rules: spec.rules, oldRules: worldsOldRules, ...(spec.pins !== undefined ? { pins: spec.pins } : {}), worlds, outDir, symmetry: how.symmetry, plan: swarm ? spec : null, workers, stopOnFirst: how.stopOnFirst },
    how.stopOnFirst ? worlds.map((_, i) => i) : threadOrder(worlds),
    from,
    to,
    {
      now: () => elapsedSeconds(clock),
      replayCommand: (path) => replayCommand(path, pair),
      searchHere,
      onWorld: (i, r) => {
        suiteBar.update(i + 1, r.name);
        violated ||= r.violations.length > 0;
        announce(r);
      },
      onSuiteDone: () => {
        suiteBar.stop();
        seedsCount = swarm && !(how.stopOnFirst && violated) && interruption() === null;
        if (!seedsCount) return true;
        seedsBar = progressBar(seedsIo, 'seeds', to - from);
        seedsBar.update(seedsDone);
        for (const r of waiting.splice(0)) announceSeeds?.(r);
        return false;
      },
      onSeeds: (done) => {
        seedsDone = done;
        seedsBar?.update(done);
      },
      onViolation: (r) => {
        if (seedsCount === true || (seedsCount === null && !how.stopOnFirst)) announceSeeds?.(r);
        else if (seedsCount === null) waiting.push(r);
      },
    },
  );
  (seedsBar as ReturnType<typeof progressBar> | null)?.stop();
  const smallReport = worlds.length > 0 ? smallWorldsReport(result.worlds, result.suiteSeconds, worlds.length) : null;
  // Worlds a thread searched to their end past the suite's end (an interrupt, a stop): their traces, kept and named.
  const keptOutside = result.beyond.flatMap((w) => w.violations.map((v) => v.path));
  return { smallReport, merged: seedsCount === true ? result.swarm : emptyShard(), dropped: seedsCount !== true, threadsEnded: result.threadsEnded, keptOutside };
}
