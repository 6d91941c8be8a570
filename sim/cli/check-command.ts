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
import { OPT_IN_PROPERTIES } from '../outbox/properties.ts';
import type { BrokerMode } from '../../model/types.ts';
import { dirname, join } from 'node:path';
import { BOUNDS_DEFAULT, SEEDS_DEFAULT, steppersFor, type ShardResult } from '../check.ts';
import type { RunBounds } from '../core/random.ts';
import { runSeedsParallel } from '../workers/pool.ts';
import type { PlanSpec } from '../workers/check-task.ts';
import { writeShardFile } from '../shard-file.ts';
import { buildReport, renderReport, type CheckReport } from '../check-report.ts';
import { writeCounterexample, type RulesPair, type WrittenTrace } from '../outbox/record-trace.ts';
import { describeOptions, swarmOptions } from '../outbox/options.ts';
import { loadRules } from '../rules-loader.ts';
import { replayCommand as replayTraceCommand } from '../../traces/render/facts.ts';
import { choiceFlag, intFlag } from './errors.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';
import { progressBar } from './progress.ts';
import { elapsedSeconds, startClock } from './clock.ts';
import { terminalText } from '../terminal-text.ts';
import { checkFaultError } from './rule-fault.ts';
import { checkOutputFile, checkOutputFolder } from './output-place.ts';
import { settingsBanner, settingsOf } from './world-settings.ts';
import { interruptExitCode, interruption, type InterruptSignal } from '../interrupt.ts';
import { withInterruptSignals } from './signals.ts';

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
}

/** Resolves the rule sets named by flags. */
export async function rulesPair(rules: string | undefined, oldRules: string | undefined): Promise<RulesPair> {
  const r = await loadRules(rules ?? 'fail-closed');
  const o = oldRules !== undefined ? await loadRules(oldRules) : null;
  return { rules: r.rules, rulesOrigin: r.origin, oldRules: o?.rules ?? null, oldRulesOrigin: o?.origin ?? null };
}

/** The command that replays a trace made under `pair` (naming the rule files it needs). */
export function replayCommand(path: string, pair: RulesPair): string {
  return replayTraceCommand(path, { rules: pair.rulesOrigin, oldRules: pair.oldRulesOrigin });
}

/** Parses `--shard I/N` (1-based I). */
export function parseShard(value: string | undefined): { index: number; count: number } | null {
  if (value === undefined) return null;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (m === null) throw new UsageError(`--shard must look like I/N (for example 2/4), got "${value}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new UsageError(`--shard ${value}: I must be between 1 and N`);
  return { index, count };
}

/** The seeds [from, to) of shard I of N over seeds [start, start + seeds). */
export function shardRange(start: number, seeds: number, shard: { index: number; count: number } | null): [number, number] {
  if (shard === null) return [start, start + seeds];
  const from = start + Math.floor((seeds * (shard.index - 1)) / shard.count);
  const to = start + Math.floor((seeds * shard.index) / shard.count);
  return [from, to];
}

/** Shrinks and writes the first counterexample of each property, lowest seed first. */
export function writeFirstCounterexamples(pair: RulesPair, merged: ShardResult, outDir: string, bounds: RunBounds): WrittenTrace[] {
  const steppers = steppersFor(pair.rules, pair.oldRules);
  return Object.values(merged.first)
    .sort((a, b) => a.seed - b.seed)
    .map((c) => writeCounterexample(outDir, pair, steppers, c.seed, c.options, c.events, c.violation.property, 'check', bounds.healStepsMax));
}

/** A check stopped by a signal: which, and how many of its seeds ran. */
export interface InterruptedRun {
  signal: InterruptSignal;
  runs: number;
  seeds: number;
}

/** The line that heads the summary of an interrupted check. */
function interruptedLine(i: InterruptedRun): string {
  return `INTERRUPTED (${i.signal}): ${i.runs.toLocaleString('en-US')} of ${i.seeds.toLocaleString('en-US')} seeds ran; this summary covers those seeds only, not a verdict on the rest`;
}

/** Writes the counterexamples, then reports; an interrupted run is marked so (JSON: `interrupted`) and exits 130 or 143. */
export function finishCheck(pair: RulesPair, merged: ShardResult, outDir: string, bounds: RunBounds, seconds: number, json: boolean, io: Io, interrupted: InterruptedRun | null = null): number {
  const written = writeFirstCounterexamples(pair, merged, outDir, bounds);
  const report: CheckReport & { interrupted: InterruptedRun | null } = {
    ...buildReport(merged, written, {
      rules: pair.rules.name,
      oldRules: pair.oldRules?.name ?? null,
      seconds,
      replayCommand: (path) => replayCommand(path, pair),
    }),
    interrupted,
  };
  if (json) io.out(JSON.stringify(report));
  else {
    if (interrupted !== null) io.out(interruptedLine(interrupted));
    for (const line of renderReport(report)) io.out(line);
  }
  if (interrupted !== null) return interruptExitCode(interrupted.signal);
  return report.ok ? 0 : 1;
}

export async function checkCommand(flags: CheckFlags, io: Io): Promise<number> {
  return withInterruptSignals(() => runCheck(flags, io));
}

async function runCheck(flags: CheckFlags, io: Io): Promise<number> {
  const pair = await rulesPair(flags.rules, flags.oldRules);
  const single = flags.seed !== undefined;
  const seedStart = intFlag('--seed', flags.seed, 1);
  const seeds = single ? 1 : intFlag('--seeds', flags.seeds, SEEDS_DEFAULT, 1, 10_000_000);
  const broker: BrokerMode | null = flags.broker === undefined ? null : choiceFlag('--broker', flags.broker, BROKER_MODES, 'id-ok');
  const settings = settingsOf(flags);
  const anySetting = Object.keys(settings).length > 0;
  const atMostOnce = flags.property === undefined ? false : choiceFlag('--property', flags.property, OPT_IN_PROPERTIES, 'at-most-once') === 'at-most-once';
  const workers = intFlag('--workers', flags.workers, 1, 1, 64);
  const shard = parseShard(flags.shard);
  const outDir = flags.out ?? 'traces/found';
  const spec: PlanSpec = { rules: flags.rules ?? 'fail-closed', oldRules: flags.oldRules ?? null, broker, ...(anySetting ? { settings } : {}), ...(atMostOnce ? { atMostOnce } : {}), bounds: BOUNDS_DEFAULT };
  const [from, to] = shardRange(seedStart, seeds, shard);
  const shardPath = shard === null ? null : (flags.shardOut ?? join('traces', 'shards', `${pair.rules.name}-shard-${shard.index}-of-${shard.count}.json`));
  // Where the results go is checked before the seeds run, not after.
  checkOutputFolder('--out', outDir);
  if (shardPath !== null) checkOutputFile('--shard-out', shardPath);

  // --quiet: no header and no progress, only the summary (and what went wrong).
  const quiet = flags.quiet === true;
  if (!flags.json && !quiet) {
    io.out(`outbox-sim check: rules ${terminalText(pair.rules.name)}${pair.oldRules ? `, old rules ${terminalText(pair.oldRules.name)}` : ''}; seeds ${from}..${to - 1}${shard ? ` (shard ${shard.index}/${shard.count} of ${seedStart}..${seedStart + seeds - 1})` : ''}; broker ${broker ?? 'drawn per seed'}${settingsBanner(settings, false)}; ${workers} worker${workers === 1 ? '' : 's'}`);
    if (single || flags.verbose) {
      io.out(`  seed ${from} options: ${describeOptions(swarmOptions(from, { ...(broker ? { broker } : {}), skew: pair.oldRules !== null, ...(anySetting ? { settings } : {}) }))}`);
    } else {
      io.out('  swarm: each seed draws engines 1-3, ids 1-2, bodies/id 1-3, attempts limit 1-5, broker mode and fault mix (see one with --seed S)');
    }
  }
  const clock = startClock(io);
  const bar = progressBar(flags.json || quiet ? { ...io, tty: false } : io, 'seeds', to - from);
  const merged = await runSeedsParallel(spec, from, to, workers, (done) => bar.update(done), { interruptible: true });
  bar.stop();
  if (merged.fault !== undefined) throw checkFaultError(pair, steppersFor(pair.rules, pair.oldRules), merged.fault, outDir, 'check');
  const signal = interruption();
  const interrupted = signal === null ? null : { signal, runs: merged.runs, seeds: to - from };
  if (interrupted !== null && shardPath !== null) {
    // A partial shard would merge as if it were whole.
    if (!flags.json) io.out(`  shard result not written to ${terminalText(shardPath)}: the run was interrupted (re-run this shard)`);
  } else if (shard !== null && shardPath !== null) {
    const path = shardPath;
    writeShardFile(path, { pair, spec, seedStart, seeds, shard, from, to, seconds: elapsedSeconds(clock), result: merged });
    if (!flags.json && !quiet) io.out(`  shard result written to ${terminalText(path)} (combine with: npx outbox-sim merge ${terminalText(join(dirname(path), '*.json'))})`);
  }
  return finishCheck(pair, merged, outDir, BOUNDS_DEFAULT, elapsedSeconds(clock), flags.json === true, io, interrupted);
}
