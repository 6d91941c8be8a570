/**
 * `outbox-sim merge SHARD...`: combines the results of `check --shard I/N`
 * runs (from a CI matrix or a batch system) into one report, exactly as one
 * unsharded run would have given it. A shard file is data, like a trace:
 * a rule file it names is never loaded by itself, only when the user passes
 * it (`--rules`, `--old-rules`) and its content hash is the recorded one.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { mergeShards } from '../check.ts';
import { readShardFile, shardsProblem, type ShardFile } from '../shard-file.ts';
import { finishCheck, skewedSeeds, smallWorldsCommand, swarmCoverage } from './check-command.ts';
import { catalogRules } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import { fileHash, loadRules } from '../rules-loader.ts';
import type { TraceRules } from '../trace-format.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';
import { checkOutputFolder } from './output-place.ts';

export async function mergeCommand(paths: string[], flags: { json?: boolean; quiet?: boolean; out?: string; rules?: string; oldRules?: string }, io: Io): Promise<number> {
  if (paths.length === 0) throw new UsageError('merge needs the shard files to combine');
  const outDir = flags.out ?? 'traces/found';
  checkOutputFolder('--out', outDir);
  const files = paths.map(shardFile);
  const problem = shardsProblem(files, paths);
  if (problem !== null) throw new UsageError(problem);
  const { spec, rules: rulesOrigin, oldRules: oldRulesOrigin } = files[0];
  const rules = await shardRules(rulesOrigin, flags.rules, '--rules');
  // Shards run without older engines: an --old-rules would be ignored, and the user would believe a skewed run was merged.
  if (oldRulesOrigin === null && flags.oldRules !== undefined) throw new UsageError(`--old-rules ${flags.oldRules}: these shards ran no older engines (check without --old-rules); leave it out`);
  const oldRules = oldRulesOrigin === null ? null : await shardRules(oldRulesOrigin, flags.oldRules, '--old-rules');
  const full = { rules, rulesOrigin, oldRules, oldRulesOrigin };
  // The upgrade by default ran in the seeds that drew skew: reported as the unsharded run reports it, without old rules of its own.
  const upgrade = spec.skewDrawn === true;
  const pair = upgrade ? { ...full, oldRules: null, oldRulesOrigin: null } : full;
  const merged = mergeShards(files.map((f) => f.result));
  if (!flags.json && flags.quiet !== true) io.out(`outbox-sim merge: ${files.length} shards of seeds ${files[0].seedStart}..${files[0].seedStart + files[0].seeds - 1}`);
  // The shards ran side by side: the run took as long as its slowest shard.
  const seconds = Math.max(...files.map((f) => f.seconds));
  const { seedStart, seeds } = files[0];
  return finishCheck(pair, merged, outDir, spec.bounds, seconds, flags.json === true, io, null, {
    parts: { smallWorlds: null, swarm: true, coverage: swarmCoverage(spec, seedStart, seedStart + seeds, merged.exercised), seedStart },
    smallWorldsNotRun: smallWorldsCommand(spec),
    ...(upgrade ? { upgradeSeeds: skewedSeeds(seedStart, seedStart + seeds), skewPair: full } : {}),
  });
}

/** A shard file, read; a folder is named as one (reading it would call it a corrupt shard). */
function shardFile(path: string): ShardFile {
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw new UsageError(`${path} is a folder, not a shard file; give the files each \`check --shard I/N --shard-out FILE\` wrote`);
  }
  return readShardFile(path);
}

/**
 * The rule set the shards were made with, as a trace's is rebuilt
 * (sim/outbox/from-trace.ts): a catalog one by name, a rule file only from
 * the path the user gives with `flag`, once its content hash is the
 * recorded one. The refusals are said here, of shard files and merge's own
 * flags: the trace's would speak of a trace and suggest replay's --under.
 */
async function shardRules(recorded: TraceRules, supplied: string | undefined, flag: '--rules' | '--old-rules'): Promise<RuleSet> {
  if (recorded.source === 'catalog') {
    const rules = catalogRules(recorded.name);
    if (rules === undefined) throw new UsageError(`the shards were made under the catalog rule set "${recorded.name}", which this version of outbox-sim does not have; merge them with the outbox-sim that made them`);
    if (supplied !== undefined && supplied !== recorded.name) throw new UsageError(`the shards were made under the catalog rule set ${recorded.name}, not a rule file; leave ${flag} out (it supplies a rule file the shards were made with)`);
    return rules;
  }
  if (typeof recorded.hash !== 'string') throw new UsageError(`the shards name the rule file ${recorded.source} without its content hash, so no file can be checked against it; re-run the shards`);
  const made = `the shards were made with the rule file ${recorded.source} (rule set ${recorded.name}, content hash ${recorded.hash}; the path is relative to the folder they were made in)`;
  if (supplied === undefined) throw new UsageError(`${made}, and merge never loads code by itself: pass that file with ${flag} ${recorded.source} (or its path from here)`);
  if (catalogRules(supplied) !== undefined) throw new UsageError(`${supplied} is a catalog rule set, but ${made}: pass that file with ${flag}`);
  const path = resolve(supplied);
  if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`rule file ${supplied} ${existsSync(path) ? 'is not a file' : 'does not exist'}; ${made}: pass the path of that file from here with ${flag}`);
  const hash = fileHash(path);
  if (hash !== recorded.hash) throw new UsageError(`rule file ${supplied} is not the one the shards were made with: its content hash is ${hash}, ${made}; restore that version, or re-run the shards with this one`);
  return (await loadRules(supplied, recorded)).rules;
}
