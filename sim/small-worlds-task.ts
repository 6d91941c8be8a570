/**
 * One world of the small-world suite as a worker thread searches it
 * (`workers/job-thread.ts`): the rule sets named by spec (catalog names or
 * file paths, loaded here once per thread, from the code the command pinned), the world, where its traces go.
 * Everything in and out is plain data. The thread reads no clock: the
 * caller times each world, and turns trace paths into replay commands.
 */
import { steppersFor } from './check.ts';
import type { Steppers } from './outbox/outbox-system.ts';
import type { RulesPair } from './outbox/record-trace.ts';
import { loadPinned, type RulePins } from './rules-loader.ts';
import { exploreSmallWorld, type SmallWorld, type SmallWorldResult } from './small-worlds.ts';

/** Rule sets loaded by this thread, by their specs: a thread searches several worlds of one check. */
const pairs = new Map<string, Promise<{ pair: RulesPair; steppers: Steppers }>>();

async function loadPair(rules: string, oldRules: string | null, pins: RulePins | undefined): Promise<{ pair: RulesPair; steppers: Steppers }> {
  const r = await loadPinned(rules, pins);
  const o = oldRules === null ? null : await loadPinned(oldRules, pins);
  const pair = { rules: r.rules, rulesOrigin: r.origin, oldRules: o?.rules ?? null, oldRulesOrigin: o?.origin ?? null };
  return { pair, steppers: steppersFor(pair.rules, pair.oldRules) };
}

/**
 * Searches world `world` (suite index `index`) of the rule sets named by
 * specs on this thread, loading them once per thread; `stopReason` ends the
 * search early (its `seconds` 0, its replay commands the bare trace paths);
 * `claim` says whether its traces are to be written (`SuiteRun.claim`).
 */
export async function searchWorld(rules: string, oldRules: string | null, pins: RulePins | undefined, world: SmallWorld, index: number, outDir: string, symmetry: boolean, stopReason?: () => string | null, claim?: () => boolean): Promise<SmallWorldResult> {
  const key = JSON.stringify([rules, oldRules, pins ?? null]);
  let pair = pairs.get(key);
  if (pair === undefined) pairs.set(key, (pair = loadPair(rules, oldRules, pins)));
  const p = await pair;
  return exploreSmallWorld(p.pair, p.steppers, world, index, { outDir, replayCommand: (path) => path, now: () => 0, symmetry, ...(stopReason ? { stopReason } : {}), ...(claim ? { claim } : {}) });
}
