/**
 * `outbox-sim merge SHARD...`: combines the results of `check --shard I/N`
 * runs (from a CI matrix or a batch system) into one report, exactly as one
 * unsharded run would have given it.
 */
import { mergeShards } from '../check.ts';
import { readShardFile, shardsProblem } from '../shard-file.ts';
import { finishCheck, rulesPair } from './check-command.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';
import { checkOutputFolder } from './output-place.ts';

export async function mergeCommand(paths: string[], flags: { json?: boolean; out?: string }, io: Io): Promise<number> {
  if (paths.length === 0) throw new UsageError('merge needs the shard files to combine');
  const outDir = flags.out ?? 'traces/found';
  checkOutputFolder('--out', outDir);
  const files = paths.map(readShardFile);
  const problem = shardsProblem(files);
  if (problem !== null) throw new UsageError(problem);
  const spec = files[0].spec;
  const pair = await rulesPair(spec.rules, spec.oldRules ?? undefined);
  const merged = mergeShards(files.map((f) => f.result));
  if (!flags.json) io.out(`outbox-sim merge: ${files.length} shards of seeds ${files[0].seedStart}..${files[0].seedStart + files[0].seeds - 1}`);
  // The shards ran side by side: the run took as long as its slowest shard.
  const seconds = Math.max(...files.map((f) => f.seconds));
  return finishCheck(pair, merged, outDir, spec.bounds, seconds, flags.json === true, io);
}
