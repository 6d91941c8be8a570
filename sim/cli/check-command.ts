/**
 * `outbox-sim check`: the main job. Seeds run with a progress bar, then a
 * summary; exit 0 when no property is violated, 1 when one is (each
 * counterexample shrunk and written as a trace, with the command that
 * replays it), 2 on bad input.
 */
import { BROKER_MODES } from '../../model/broker.ts';
import type { BrokerMode } from '../../model/types.ts';
import { BOUNDS_DEFAULT, mergeShards, runShard, SEEDS_DEFAULT, steppersFor, type CheckPlan } from '../check.ts';
import { buildReport, renderReport, type CheckReport } from '../check-report.ts';
import { writeCounterexample, type RulesPair } from '../outbox/record-trace.ts';
import { describeOptions, swarmOptions } from '../outbox/options.ts';
import { loadRules } from '../rules-loader.ts';
import { choiceFlag, intFlag } from './errors.ts';
import type { Io } from './io.ts';
import { progressBar } from './progress.ts';
import { elapsedSeconds, startClock } from './clock.ts';

/** Flags of `check` as commander gives them. */
export interface CheckFlags {
  rules?: string;
  oldRules?: string;
  seeds?: string;
  seed?: string;
  broker?: string;
  json?: boolean;
  out?: string;
  verbose?: boolean;
}

/** Resolves the rule sets named by flags. */
export async function rulesPair(rules: string | undefined, oldRules: string | undefined): Promise<RulesPair> {
  const r = await loadRules(rules ?? 'fail-closed');
  const o = oldRules !== undefined ? await loadRules(oldRules) : null;
  return { rules: r.rules, rulesOrigin: r.origin, oldRules: o?.rules ?? null, oldRulesOrigin: o?.origin ?? null };
}

/** The command that replays a trace. */
export function replayCommand(path: string): string {
  return `npx outbox-sim replay ${path}`;
}

export async function checkCommand(flags: CheckFlags, io: Io): Promise<number> {
  const pair = await rulesPair(flags.rules, flags.oldRules);
  const single = flags.seed !== undefined;
  const seedStart = intFlag('--seed', flags.seed, 1);
  const seeds = single ? 1 : intFlag('--seeds', flags.seeds, SEEDS_DEFAULT, 1, 10_000_000);
  const broker: BrokerMode | null = flags.broker === undefined ? null : choiceFlag('--broker', flags.broker, BROKER_MODES, 'id-ok');
  const outDir = flags.out ?? 'traces/found';
  const plan: CheckPlan = { rules: pair.rules, oldRules: pair.oldRules, seedStart, seeds, broker, bounds: BOUNDS_DEFAULT };

  if (!flags.json) {
    io.out(`outbox-sim check: rules ${pair.rules.name}${pair.oldRules ? `, old rules ${pair.oldRules.name}` : ''}; seeds ${seedStart}..${seedStart + seeds - 1}; broker ${broker ?? 'drawn per seed'}`);
    if (single || flags.verbose) {
      io.out(`  seed ${seedStart} options: ${describeOptions(swarmOptions(seedStart, { ...(broker ? { broker } : {}), skew: pair.oldRules !== null }))}`);
    } else {
      io.out('  swarm: each seed draws engines 1-3, ids 1-2, bodies/id 1-3, attempts limit 1-5, broker mode and fault mix (see one with --seed S)');
    }
  }
  const clock = startClock();
  const bar = flags.json ? progressBar({ ...io, tty: false }, 'seeds', seeds) : progressBar(io, 'seeds', seeds);
  const shard = runShard(plan, seedStart, seedStart + seeds, (done) => bar.update(done));
  bar.stop();
  const merged = mergeShards([shard]);
  const steppers = steppersFor(pair.rules, pair.oldRules);
  const written = Object.values(merged.first)
    .sort((a, b) => a.seed - b.seed)
    .map((c) => writeCounterexample(outDir, pair, steppers, c.seed, c.options, c.events, c.violation.property, 'check', plan.bounds.healStepsMax));
  const report: CheckReport = buildReport(merged, written, {
    rules: pair.rules.name,
    oldRules: pair.oldRules?.name ?? null,
    seconds: elapsedSeconds(clock),
    replayCommand,
  });
  if (flags.json) io.out(JSON.stringify(report));
  else for (const line of renderReport(report)) io.out(line);
  return report.ok ? 0 : 1;
}
