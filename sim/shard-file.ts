/**
 * Shard files: the plain result of one `check --shard I/N`, with the plan it
 * ran, so that `merge` can refuse shards of different runs and combine the
 * rest into one report. Each is sealed with a checksum of its content, as a
 * trace's lines are (traces/README.md): `merge` sums what it would report
 * from, so an edited count is refused rather than merged into wrong totals.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ShardResult } from './check.ts';
import { canonicalJson } from './core/canonical.ts';
import type { RulesPair } from './outbox/record-trace.ts';
import type { PlanSpec } from './workers/check-task.ts';
import { UsageError } from './usage-error.ts';
import { writeFileAtomic } from './atomic-write.ts';
import type { TraceRules } from './trace-format.ts';

export const SHARD_FORMAT = 'outbox-sim-shard';
/** 2: sealed with `sum`. A version 1 file has no checksum to hold it to, so it is refused like any other version. */
export const SHARD_VERSION = 2;

/** What a shard file holds. */
export interface ShardFile {
  format: typeof SHARD_FORMAT;
  version: number;
  spec: PlanSpec;
  rules: TraceRules;
  oldRules: TraceRules | null;
  seedStart: number;
  seeds: number;
  shard: { index: number; count: number };
  from: number;
  to: number;
  /** Wall-clock seconds the shard took (reporting only). */
  seconds: number;
  result: ShardResult;
  /** sha256 (first 16 hex) of the canonical JSON of every other field, as the file holds them. */
  sum: string;
}

/** The checksum of a shard file's content: its fields but `sum`, as parsed from the file (what `merge` reads). */
function shardSum(content: Record<string, unknown>): string {
  const { sum: _sum, ...rest } = content;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex').slice(0, 16);
}

/** Writes a shard file atomically. */
export function writeShardFile(
  path: string,
  s: { pair: RulesPair; spec: PlanSpec; seedStart: number; seeds: number; shard: { index: number; count: number }; from: number; to: number; seconds: number; result: ShardResult },
): void {
  mkdirSync(dirname(path), { recursive: true });
  // The pins name bundles on this machine, and how often seeds leave a witness depends on the shard's range: shards made on several machines merge (the rule files' hashes are recorded below).
  const { pins: _pins, witnessEvery: _witnessEvery, ...spec } = s.spec;
  const file: Omit<ShardFile, 'sum'> = {
    format: SHARD_FORMAT,
    version: SHARD_VERSION,
    spec,
    rules: s.pair.rulesOrigin,
    oldRules: s.pair.oldRulesOrigin,
    seedStart: s.seedStart,
    seeds: s.seeds,
    shard: s.shard,
    from: s.from,
    to: s.to,
    seconds: s.seconds,
    result: s.result,
  };
  // Summed as the reader will parse it: JSON leaves out what it cannot write (an undefined field), so the sum is of the text's content.
  const content = JSON.parse(JSON.stringify(file)) as Record<string, unknown>;
  writeFileAtomic(path, `${JSON.stringify({ ...content, sum: shardSum(content) })}\n`);
}

/** Reads a shard file, with one-line errors. */
export function readShardFile(path: string): ShardFile {
  if (!existsSync(path)) throw new UsageError(`shard file ${path} does not exist`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new UsageError(`shard file ${path} is not valid JSON (truncated or corrupt); re-run that shard`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${path} is not an outbox-sim shard file`);
  const f = value as Partial<ShardFile>;
  if (f.format !== SHARD_FORMAT) throw new UsageError(`${path} is not an outbox-sim shard file`);
  if (f.version !== SHARD_VERSION) throw new UsageError(`${path} is shard format version ${String(f.version)}; this outbox-sim reads version ${SHARD_VERSION}: re-run that shard with it`);
  if (f.sum !== shardSum(value as Record<string, unknown>)) throw new UsageError(`shard file ${path} does not match its checksum: edited or corrupt; re-run that shard`);
  return f as ShardFile;
}

/** Checks that shards belong to one run and cover it exactly once; returns a one-line problem or null, naming the files by `paths` (in the order of `files`). */
export function shardsProblem(files: readonly ShardFile[], paths: readonly string[]): string | null {
  const [a] = files;
  const same = (f: ShardFile) =>
    JSON.stringify([f.spec, f.rules, f.oldRules, f.seedStart, f.seeds, f.shard.count]) ===
    JSON.stringify([a.spec, a.rules, a.oldRules, a.seedStart, a.seeds, a.shard.count]);
  const other = files.findIndex((f) => !same(f));
  if (other >= 0) {
    const o = files[other];
    return `shard file ${paths[other] ?? '?'} (shard ${o.shard.index}/${o.shard.count}) comes from a different run than ${paths[0] ?? '?'} (rules, seeds or options differ): give the shards of one run`;
  }
  const indexes = files.map((f) => f.shard.index).sort((x, y) => x - y);
  const dup = indexes.find((x, i) => i > 0 && indexes[i - 1] === x);
  if (dup !== undefined) return `shard ${dup}/${a.shard.count} is given twice`;
  const missing = Array.from({ length: a.shard.count }, (_, i) => i + 1).filter((i) => !indexes.includes(i));
  if (missing.length > 0) return `${missing.length === 1 ? 'shard' : 'shards'} ${missing.map((i) => `${i}/${a.shard.count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`;
  return null;
}
