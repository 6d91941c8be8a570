/**
 * The commands as functions: `check`, `explore`, `replay`, `compare` and
 * `diff` take an options object and resolve to the object the command's
 * `--json` prints. Each runs the very function the command line runs
 * (`runCheck` and the others in sim/cli/): the options become the command's
 * flags, so defaults, bounds and error messages are the command line's. Bad
 * input rejects with a {@link UsageError} whose message names the flag
 * (`--seeds must be ...`).
 *
 * Differences from the command line: nothing is printed; no signal handler
 * is installed (a library leaves the process's signals alone); a user's rule
 * file is loaded in this thread, without the watchdog the command line puts
 * around it (a decision that never returns blocks this thread, and a test
 * runner's timeout with it; README.md, 'Use it in your test suite'); a decision that
 * ends the process from inside its call ends it with exit code 2 and one
 * line, as on the command line (exit-guard.ts).
 */
import type { CheckOptions, CompareOptions, DiffOptions, ExploreOptions, ReplayOptions, RulesInput, WorldSizeOptions } from './options.ts';
import { checkedOptions } from './option-keys.ts';
import { settingFlagsOf } from './setting-options.ts';
import { runCheck, type CheckFlags, type CheckResult } from '../cli/check-command.ts';
import { runExplore, type ExploreFlags, type ExploreResult } from '../cli/explore-command.ts';
import { runCompare, type CompareResult } from '../cli/compare-command.ts';
import { runDiff, type DiffResult } from '../cli/diff-command.ts';
import { runReplay, type ReplayResult } from '../cli/replay-command.ts';
import type { Io } from '../cli/io.ts';
import { isValueSpec, specOfValue } from '../rule-values.ts';
import { UsageError } from '../usage-error.ts';
import { RuleSetError } from '../rule-set-error.ts';
import { RuleFault, ruleFaultOf } from '../../model/rule-fault.ts';
import { ruleSetErrorOf } from '../cli/rule-fault.ts';
import { exitGuarded } from './exit-guard.ts';
import { findPackage } from '../package-version.ts';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export type { CheckResult, ExploreResult, CompareResult, DiffResult, ReplayResult };
export type { CheckReport, ReportedViolation, Layers, UpgradeNote } from '../check-report.ts';
export type { InterruptedRun, StoppedRun } from '../cli/check-command.ts';
export type { SmallWorldsReport } from '../small-worlds-report.ts';
export type { SmallWorldResult, SmallWorldViolation } from '../small-worlds.ts';
export type { PairCoverage } from '../outbox/swarm-coverage.ts';
export type { ExploreViolation } from '../cli/explore-command.ts';
export type { CompareRow } from '../cli/compare-command.ts';
export type { DiffSide } from '../cli/diff-command.ts';
export { UsageError, RuleSetError };
export type { BrokenDecision, BrokenAt } from '../rule-set-error.ts';
export { RuleFault };
export type { Decision, FaultKind } from '../../model/rule-fault.ts';

export type { RulesInput, CheckOptions, ExploreOptions, ReplayOptions, CompareOptions, DiffOptions, WorldSizeOptions, WorldSettingOptions } from './options.ts';

let silent: Promise<Io> | undefined;

/**
 * Commands print nothing when called as functions. The results' `seconds`
 * are timed by the package's wall clock (bin/clock.mjs, reporting only),
 * which this hands in as the command line's bin hands it to the CLI: nothing
 * under sim/ reads a clock.
 */
function silentIo(): Promise<Io> {
  silent ??= import(new URL('bin/clock.mjs', pathToFileURL(join(findPackage(import.meta.url).root, '/'))).href).then((clock: { wallSeconds: () => number }) => ({
    out: () => undefined,
    err: () => undefined,
    tty: false,
    now: clock.wallSeconds,
  }));
  return silent;
}

/**
 * Runs a command under the exit guard. A broken decision that reached the
 * command's end (a replay's, a diff's) rejects as a {@link RuleSetError}, as
 * the commands that write its trace already do: the command line's line,
 * with its fields.
 */
async function commandCall<T>(command: string, run: (io: Io) => Promise<{ result: T }>): Promise<T> {
  try {
    return (await exitGuarded(async () => run(await silentIo()))).result;
  } catch (err) {
    const fault = err instanceof UsageError ? null : ruleFaultOf(err);
    if (fault !== null) throw ruleSetErrorOf(fault, command);
    throw err;
  }
}

function specOf(rules: RulesInput): string {
  return typeof rules === 'string' ? rules : specOfValue(rules);
}

function optionalSpec(rules: RulesInput | undefined): string | undefined {
  return rules === undefined ? undefined : specOf(rules);
}

/** A number option as the command line's flag text (the flag's parser checks it). */
function text(n: number | undefined): string | undefined {
  return n === undefined ? undefined : String(n);
}

function sizeFlags(o: WorldSizeOptions): ExploreFlags {
  return {
    ids: text(o.ids),
    bodies: text(o.bodies),
    ...(o.sameBodies === true ? { sameBodies: true } : {}),
    ...(o.longIds === true ? { longIds: true } : {}),
    ...(o.idShape === undefined ? {} : { idShape: o.idShape }),
    ...(o.bodyShape === undefined ? {} : { bodyShape: o.bodyShape }),
    engines: text(o.engines),
    attempts: text(o.attempts),
    crashes: text(o.crashes),
    corruptions: text(o.corruptions),
    operator: text(o.operator),
    broker: o.broker,
  };
}

/** `outbox-sim check`: seeded worlds full of faults; resolves to the report `check --json` prints. */
export async function check(given?: CheckOptions): Promise<CheckResult> {
  const options = checkedOptions<CheckOptions>('check', given);
  const flags: CheckFlags = {
    rules: optionalSpec(options.rules),
    oldRules: optionalSpec(options.oldRules),
    seeds: text(options.seeds),
    seed: text(options.seed),
    broker: options.broker,
    ...settingFlagsOf(options),
    property: options.property,
    operator: text(options.operator),
    attempts: text(options.attempts),
    swarmOnly: options.swarmOnly,
    smallWorldsOnly: options.smallWorldsOnly,
    // As commander gives --no-symmetry: false only when asked.
    ...(options.symmetry === false ? { symmetry: false } : {}),
    ...(options.stopOnFirst === true ? { stopOnFirst: true } : {}),
    ...(options.upgrade === false ? { upgrade: false } : {}),
    out: options.out,
    workers: text(options.workers),
    shard: options.shard === undefined ? undefined : `${options.shard.index}/${options.shard.count}`,
    shardOut: options.shardOut,
    json: true,
  };
  if ((options.workers ?? 1) > 1 && (isValueSpec(flags.rules) || isValueSpec(flags.oldRules))) {
    throw new UsageError('a rule set given as a value runs on this thread only: give workers: 1, or the path of its file');
  }
  return commandCall('check', (io) => runCheck(flags, io));
}

/** `outbox-sim explore`: exhaustive search of one bounded world; resolves to what `explore --json` prints. */
export async function explore(given?: ExploreOptions): Promise<ExploreResult> {
  const options = checkedOptions<ExploreOptions>('explore', given);
  const flags: ExploreFlags = {
    ...sizeFlags(options),
    rules: optionalSpec(options.rules),
    oldRules: optionalSpec(options.oldRules),
    ...settingFlagsOf(options),
    property: options.property,
    maxStates: text(options.maxStates),
    maxDepth: text(options.maxDepth),
    maxMemory: text(options.maxMemory),
    lookAhead: text(options.lookAhead),
    continue: options.continue,
    ...(options.symmetry === false ? { symmetry: false } : {}),
    ...(options.por === true ? { por: true } : {}),
    out: options.out,
    json: true,
  };
  return commandCall('explore', (io) => runExplore(flags, io));
}

/** `outbox-sim replay`: replays a trace exactly, or re-runs its world `under` other rules; resolves to what `replay --json` prints. */
export async function replay(given: ReplayOptions): Promise<ReplayResult> {
  const options = checkedOptions<ReplayOptions>('replay', given);
  // The recorded rules are a file, pinned by its content hash: a value cannot be checked against it (JavaScript callers passed one and met a TypeError).
  for (const key of ['rules', 'oldRules'] as const) {
    const v: unknown = options[key];
    if (v !== undefined && typeof v !== 'string') throw new UsageError(`replay: ${key} is the path of the rule file the trace was recorded with; to re-run the trace's world under a rule set given as a value, pass it as under`);
  }
  return commandCall('replay', (io) => runReplay(options.trace, { rules: options.rules, oldRules: options.oldRules, under: optionalSpec(options.under), json: true }, io));
}

/** `outbox-sim compare`: same seeds and budget for every rule set; resolves to what `compare --format json` prints. */
export async function compare(given: CompareOptions): Promise<CompareResult> {
  const options = checkedOptions<CompareOptions>('compare', given);
  if (!Array.isArray(options.rules)) throw new UsageError("compare's rules is an array of rule sets (catalog names, paths or values), one row each");
  const specs = options.rules.map(specOf);
  if ((options.workers ?? 1) > 1 && specs.some(isValueSpec)) {
    throw new UsageError('a rule set given as a value runs on this thread only: give workers: 1, or the path of its file');
  }
  return commandCall('compare', (io) => runCompare(specs, { format: 'json', seeds: text(options.seeds), maxStates: text(options.maxStates), workers: text(options.workers), out: options.out }, io));
}

/** `outbox-sim diff`: the shortest run on which two rule sets give different observable outcomes; resolves to what `diff --json` prints. */
export async function diff(given: DiffOptions): Promise<DiffResult> {
  const options = checkedOptions<DiffOptions>('diff', given);
  return commandCall('diff', (io) => runDiff(specOf(options.old), specOf(options.new), { ...sizeFlags(options), ...settingFlagsOf(options), maxStates: text(options.maxStates), out: options.out, json: true }, io));
}
