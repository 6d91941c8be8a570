/**
 * One world of the small-world suite as a worker thread searches it
 * (`small-worlds-pool.ts`): the rule sets named by spec (catalog names or
 * file paths, loaded here once per thread), the world, where its traces go.
 * Everything in and out is plain data. The thread reads no clock: the
 * caller times each world, and turns trace paths into replay commands.
 */
import { steppersFor } from './check.ts';
import type { Steppers } from './outbox/outbox-system.ts';
import type { RulesPair } from './outbox/record-trace.ts';
import { loadRules } from './rules-loader.ts';
import { exploreSmallWorld, type SmallWorld, type SmallWorldResult } from './small-worlds.ts';
import { attachWatch } from './watch.ts';

/** One world to search on a thread. */
export interface SuiteTask {
  rules: string;
  oldRules: string | null;
  world: SmallWorld;
  /** Its place in the suite. */
  index: number;
  outDir: string;
  symmetry: boolean;
  /** The supervisor's watch cell (see `watch.ts`), when the command runs under one. */
  watch?: SharedArrayBuffer | null;
}

/** Rule sets loaded by this thread, by their specs: a thread searches several worlds of one check. */
const pairs = new Map<string, Promise<{ pair: RulesPair; steppers: Steppers }>>();

async function loadPair(rules: string, oldRules: string | null): Promise<{ pair: RulesPair; steppers: Steppers }> {
  const r = await loadRules(rules);
  const o = oldRules === null ? null : await loadRules(oldRules);
  const pair = { rules: r.rules, rulesOrigin: r.origin, oldRules: o?.rules ?? null, oldRulesOrigin: o?.origin ?? null };
  return { pair, steppers: steppersFor(pair.rules, pair.oldRules) };
}

/** Searches the task's world (its `seconds` 0, its replay commands the bare trace paths). */
export async function runSuiteTask(task: SuiteTask): Promise<SmallWorldResult> {
  if (task.watch) attachWatch(task.watch);
  const key = JSON.stringify([task.rules, task.oldRules]);
  let pair = pairs.get(key);
  if (pair === undefined) pairs.set(key, (pair = loadPair(task.rules, task.oldRules)));
  const p = await pair;
  return exploreSmallWorld(p.pair, p.steppers, task.world, task.index, { outDir: task.outDir, replayCommand: (path) => path, now: () => 0, symmetry: task.symmetry });
}

export default runSuiteTask;
