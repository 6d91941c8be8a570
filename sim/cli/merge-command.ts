/**
 * `outbox-sim merge SHARD...`: combines the results of `check --shard I/N`
 * runs (from a CI matrix or a batch system) into one report, exactly as one
 * unsharded run would have given it. A shard file is data, like a trace:
 * a rule file it names is never loaded by itself, only when the user passes
 * it (`--rules`, `--old-rules`) and its content hash is the recorded one.
 */
import { mergeShards } from '../check.ts';
import { readShardFile, shardsProblem } from '../shard-file.ts';
import { finishCheck, swarmCoverage } from './check-command.ts';
import { recordedRules } from '../outbox/from-trace.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';
import { checkOutputFolder } from './output-place.ts';

export async function mergeCommand(paths: string[], flags: { json?: boolean; quiet?: boolean; out?: string; rules?: string; oldRules?: string }, io: Io): Promise<number> {
  if (paths.length === 0) throw new UsageError('merge needs the shard files to combine');
  const outDir = flags.out ?? 'traces/found';
  checkOutputFolder('--out', outDir);
  const files = paths.map(readShardFile);
  const problem = shardsProblem(files);
  if (problem !== null) throw new UsageError(problem);
  const { spec, rules: rulesOrigin, oldRules: oldRulesOrigin } = files[0];
  const rules = await recordedRules(rulesOrigin, flags.rules, 'rules');
  const oldRules = oldRulesOrigin === null ? null : await recordedRules(oldRulesOrigin, flags.oldRules, 'oldRules');
  const pair = { rules, rulesOrigin, oldRules, oldRulesOrigin };
  const merged = mergeShards(files.map((f) => f.result));
  if (!flags.json && flags.quiet !== true) io.out(`outbox-sim merge: ${files.length} shards of seeds ${files[0].seedStart}..${files[0].seedStart + files[0].seeds - 1}`);
  // The shards ran side by side: the run took as long as its slowest shard.
  const seconds = Math.max(...files.map((f) => f.seconds));
  const { seedStart, seeds } = files[0];
  return finishCheck(pair, merged, outDir, spec.bounds, seconds, flags.json === true, io, null, { parts: { smallWorlds: null, swarm: true, coverage: swarmCoverage(spec, seedStart, seedStart + seeds, merged.exercised), seedStart } });
}
