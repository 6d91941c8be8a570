/**
 * One unit of `check` work for a worker thread: a range of seeds of a plan
 * named by rule specs (catalog names or file paths, loaded in the worker).
 * Everything in and out is plain data (structured clone).
 */
import { runShard, type ShardResult } from '../check.ts';
import type { RunBounds } from '../core/random.ts';
import { catalogRules } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import type { BrokerMode } from '../../model/types.ts';
import { attachWatch } from '../watch.ts';
import type { RulePins } from '../rules-loader.ts';

/** A plan as worker threads and shard files carry it. */
export interface PlanSpec {
  rules: string;
  oldRules: string | null;
  broker: BrokerMode | null;
  settings?: Readonly<Record<string, number>>;
  atMostOnce?: boolean;
  /** `check --operator N`: the operator's budget for every seed. */
  operatorActionsMax?: number;
  /** `check --attempts N`: the attempts limit of every seed. */
  attemptsMax?: number;
  bounds: RunBounds;
  /**
   * The code the command loaded for each rule file among `rules` and
   * `oldRules` (by spec): threads load that, not the file, which may have
   * been saved since (`loadPinned` in rules-loader.ts). Not written to a shard
   * file (its bundle's path is this machine's).
   */
  pins?: RulePins;
  /** Seeds that are a multiple of this leave a witness of their run (`CheckPlan.witnessEvery`). */
  witnessEvery?: number;
  /** `oldRules` is the upgrade by default, run in the seeds that draw skew (`CheckPlan.skewDrawn`). */
  skewDrawn?: true;
}

/** Seeds [from, to) of a plan. */
export interface CheckTask {
  plan: PlanSpec;
  from: number;
  to: number;
  /** The supervisor's watch cell (see `watch.ts`), when the command runs under one; a thread takes a slot of it. */
  watch?: SharedArrayBuffer | null;
  /** `check --stop-on-first`: the task ends after its first violating seed. */
  stopOnViolation?: boolean;
}

/**
 * The rule set a spec names: a catalog name resolved here, anything else (a
 * rule file, an in-process value) by the loader, imported only then. The
 * loader brings the rule-file compiler's module and the decisions' contract
 * (a schema library) with it, which a worker thread running catalog rule
 * sets never uses: leaving them out took a thread's module loading from
 * 1.08 MB of JavaScript to 0.3 MB. A catalog name never names a file or a
 * value (rules-loader.ts resolves it the same way).
 */
async function ruleSetOf(spec: string, pins: RulePins | undefined): Promise<RuleSet> {
  return catalogRules(spec) ?? (await (await import('../rules-loader.ts')).loadPinned(spec, pins)).rules;
}

/** Runs a task; used by the worker entry and, in-process, by `--workers 1`. */
export async function runTask(task: CheckTask): Promise<ShardResult> {
  if (task.watch) attachWatch(task.watch);
  const rules = await ruleSetOf(task.plan.rules, task.plan.pins);
  const oldRules = task.plan.oldRules !== null ? await ruleSetOf(task.plan.oldRules, task.plan.pins) : null;
  // The plan's own fields as they are (broker, settings, bounds, ...): only the rule sets are named by spec here.
  const { rules: _rules, oldRules: _oldRules, pins: _pins, ...shared } = task.plan;
  return runShard({ ...shared, rules, oldRules, seedStart: task.from, seeds: task.to - task.from, ...(task.stopOnViolation === true ? { stopOnViolation: true } : {}) }, task.from, task.to);
}

