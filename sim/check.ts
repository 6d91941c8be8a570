/**
 * `check`: many seeded outbox worlds, each drawing its own fault mix, each
 * run through a safety phase and a liveness phase. A shard runs a range of
 * seeds and returns plain counts plus the first counterexample per property;
 * shards merge, and the merged first counterexamples are shrunk and written
 * as traces. Shards are what worker threads and `--shard I/N` run.
 */
import type { BrokerMode } from '../model/types.ts';
import type { RuleSet } from '../model/rules.ts';
import { runPositionOf, runSeed, type RunBounds, type RunResult } from './core/random.ts';
import { runSeedFast, type FastRunResult } from './core/fast-run.ts';
import { RuleFault, type FaultKind } from '../model/rule-fault.ts';
import { noteFaultError } from './rule-set-error.ts';
import { probePositionOf, type ProbePosition } from './outbox/probe-position.ts';
import { outboxSystem, type Steppers } from './outbox/outbox-system.ts';
import { healStepsOf, swarmOptions, type FixedOptions, type WorldOptions } from './outbox/options.ts';
import { worldIdNames, type World, type WorldEvent } from './outbox/world.ts';
import { canonicalJson } from './core/canonical.ts';
import { xstateStepper, type Stepper } from './outbox/stepper.ts';
import { compiledStepper } from './outbox/compiled-stepper.ts';
import { queuedRelease } from './outbox/queued-release.ts';
import type { TransitionSystem, Violation } from './core/system.ts';
import { mergeFirstSeeds, noFirstSeeds, notePairs, pairLayout, type FirstSeeds } from './outbox/swarm-coverage.ts';
import { CycleWatch, watchCycles } from './outbox/long-life.ts';
import { addLongLife, longLifeOfSeed, noLongLife, unionThresholds, type LongLifeCounts } from './outbox/long-life-seed.ts';
import { DEEP_CYCLES } from './outbox/deep-cycles.ts';
import { lifePositionOf } from './outbox/life-position.ts';
import { BODY_SHAPE_TAG, parseBodyShape } from './outbox/body-shape.ts';
import { withBodyMarks } from './outbox/body-probe.ts';
import { withIdMarks } from './outbox/id-probe.ts';
import { ID_SHAPE_TAG } from './outbox/id-shape.ts';
import { marksOnly, probeThresholds, ProbeCalls, recordingRules, THRESHOLD_PROBE, withAttemptMarks, withClockMarks, type ClockMarks, type RuleThresholds } from './outbox/thresholds.ts';
import { DECISION_CASES, DecisionMarks, noDecisionRuns, watchedRules } from './outbox/decision-cases.ts';

/** Default seeds per check. */
export const SEEDS_DEFAULT = 5000;
/** Default bounds of one run. */
export const BOUNDS_DEFAULT: RunBounds = { faultStepsMax: 120, healStepsMax: 400 };

/** What a check runs. */
export interface CheckPlan {
  rules: RuleSet;
  oldRules: RuleSet | null;
  /** First seed, and how many. */
  seedStart: number;
  seeds: number;
  broker: BrokerMode | null;
  /** World settings fixed for every seed (flags such as `--dedupe-window`), by name; one absent is drawn per seed. */
  settings?: Readonly<Record<string, number>>;
  /** `--property at-most-once`: the opt-in property is checked too. */
  atMostOnce?: boolean;
  /** In-process only (the mutant table): narrows each seed's drawn world, e.g. a broker answer switched off. */
  world?: (options: WorldOptions) => WorldOptions;
  /** The operator's budget for every seed (`--operator N`); absent: drawn per seed. */
  operatorActionsMax?: number;
  /** The attempts limit of every seed (`--attempts N`); absent: drawn per seed. */
  attemptsMax?: number;
  bounds: RunBounds;
  /** `--stop-on-first`: the shard ends after its first violating seed (that seed counted). */
  stopOnViolation?: boolean;
  /**
   * The upgrade by default (docs/rules.md, 'Version skew'): `oldRules` run
   * beside the rules in the seeds that draw skew (options.ts,
   * `skewDrawnFor`), not in every seed as `--old-rules` has them.
   */
  skewDrawn?: true;
  /** Seeds that are a multiple of this leave a {@link witnessOf} of their run in `witnesses` (rules-state-probe.ts reruns them). */
  witnessEvery?: number;
  /**
   * false: no threshold probe before the seeds (thresholds.ts), no run deep
   * toward one. The probe for kept state runs so: the threshold probe asks
   * the rule set thousands of times first, and a module-level set it filled
   * would make both of that probe's copies alike.
   */
  thresholds?: false;
  /**
   * With `thresholds` false: where the clock matters, as the check's own
   * probe saw (thresholds.ts, probeClock), so that its seeds draw the waits
   * they drew in the check (rules-state-probe.ts runs a check's witnessed
   * seeds again so).
   */
  clock?: ClockMarks;
  /** With `thresholds` false: the body shapes a decision reads, as the check's own probe saw (body-probe.ts), for the same reason. */
  bodies?: readonly string[];
  /** With `thresholds` false: the id shapes a decision folds, as the check's own probe saw (id-probe.ts), for the same reason. */
  ids?: readonly string[];
  /** With `thresholds` false: the thresholds of the record's attempts the check's own probe saw (thresholds.ts, `withAttemptMarks`), for the same reason. */
  attempts?: readonly number[];
}

/** The first counterexample of a property in a shard, unshrunk. */
export interface RawCounterexample {
  seed: number;
  options: WorldOptions;
  violation: Violation & { step: number };
  events: (WorldEvent | null)[];
  /**
   * Set when long life found it (sim/outbox/long-life.ts): the record of `id`
   * sent round its cycle `rounds` more times (`deep`: a fixed number, then
   * faults stopped, after `tailFaultSteps` more steps of them; `toward`: its
   * rounds taken until a field passed a threshold of the rule set's, and
   * `deviated`: those steps were a round with one event taken otherwise; `crossing`: that
   * round was the one that brought the field there, or the one after it), in a world
   * whose budgets (`options`) are raised for them.
   */
  longLife?: { id: string; status: string; rounds: number; cycleSteps: number; deep: boolean; tailFaultSteps: number; toward?: { field: string; at: number; deviated: boolean; crossing?: true } };
}

/**
 * A rule set's decision that threw or broke its contract, as data (it
 * crosses worker threads and stops the check): which, how, and where (the
 * seed, the step being taken, and the events before it, to write as a trace).
 */
export interface RawFault {
  ruleSet: string;
  decision: RuleFault['decision'];
  kind: FaultKind;
  detail: string;
  seed: number;
  step: number;
  options: WorldOptions;
  events: (WorldEvent | null)[];
  /** The liveness phase's look-ahead the decision broke in, when it did (probe-position.ts). */
  probe?: ProbePosition;
  /** Met past the seed's run, in long life or a deep cycle (life-position.ts): `options` are that world's, budgets raised. */
  longLife?: true;
}

/** Plain, mergeable results of a range of seeds. */
export interface ShardResult {
  runs: number;
  steps: number;
  /** Tag counts over all runs (faults fired, layers, crash points, answers). */
  tags: Record<string, number>;
  /** Runs in which each `sometimes` property was reached. */
  reached: Record<string, number>;
  /** How runs ended. */
  ends: Record<string, number>;
  /** Runs violating each property. */
  violatedRuns: Record<string, number>;
  /** First counterexample per property (lowest seed). */
  first: Record<string, RawCounterexample>;
  /** A decision that broke its contract, at the lowest seed run (the shard stops there); absent when none did. */
  fault?: RawFault;
  /** By seed, the witness of each run the plan's `witnessEvery` asked for (absent when it asked for none). */
  witnesses?: Record<string, string>;
  /**
   * Per pair of the swarm's feature values (`pairLayout` of the plan's fixed
   * options), the lowest seed run whose run exercised it, -1 where none did:
   * one number per pair however many seeds, so it crosses threads and shard
   * files cheaply, and shards merge by taking the lowest. Absent from a
   * result made without it (a shard file written before it was kept).
   */
  exercised?: FirstSeeds;
  /** What long life did over the shard's seeds (absent from a shard file written before it). */
  longLife?: LongLifeCounts;
  /**
   * Per case of a decision's input (`DECISION_CASES`, decision-cases.ts),
   * the runs that asked the rule set's decision on it (absent from a shard
   * file written before it was kept).
   */
  decisions?: number[];
}

/** An empty shard result. */
export function emptyShard(): ShardResult {
  return { runs: 0, steps: 0, tags: {}, reached: {}, ends: {}, violatedRuns: {}, first: {} };
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

/** Merges shard results; the first counterexample per property is the one of the lowest seed. */
export function mergeShards(shards: readonly ShardResult[]): ShardResult {
  const out = emptyShard();
  for (const s of shards) {
    out.runs += s.runs;
    out.steps += s.steps;
    addCounts(out.tags, s.tags);
    addCounts(out.reached, s.reached);
    addCounts(out.ends, s.ends);
    addCounts(out.violatedRuns, s.violatedRuns);
    for (const [p, c] of Object.entries(s.first)) {
      const have = out.first[p];
      if (have === undefined || c.seed < have.seed) out.first[p] = c;
    }
    if (s.fault !== undefined && (out.fault === undefined || s.fault.seed < out.fault.seed)) out.fault = s.fault;
    if (s.witnesses !== undefined) out.witnesses = { ...out.witnesses, ...s.witnesses };
  }
  // Only when every shard that ran seeds kept its table: a pair missing from one without would read as never exercised.
  // (Tables of one plan have one length; shard files of different plans do not merge: shard-file.ts.)
  const ran = shards.filter((s) => s.runs > 0 || s.exercised !== undefined);
  const tables = ran.flatMap((s) => (s.exercised === undefined ? [] : [s.exercised]));
  if (tables.length > 0 && tables.length === ran.length && tables.every((t) => t.length === tables[0].length)) out.exercised = mergeFirstSeeds(tables);
  // Likewise long life's counts: only when every shard that ran seeds counted them.
  if (ran.length > 0 && ran.every((s) => s.longLife !== undefined)) {
    out.longLife = noLongLife();
    for (const s of ran) addLongLife(out.longLife, s.longLife ?? noLongLife());
  }
  // And the decisions asked (one count per case of the same list: a shard file of another version is left out whole).
  if (ran.length > 0 && ran.every((s) => s.decisions !== undefined && s.decisions.length === DECISION_CASES.length)) {
    const runs = noDecisionRuns();
    for (const s of ran) (s.decisions ?? []).forEach((n, i) => (runs[i] += n));
    out.decisions = runs;
  }
  return out;
}

/** The fixed options of a plan (its old rule set as a rule set, or as the spec a worker thread's plan names it by). */
export function fixedOptions(plan: Pick<CheckPlan, 'broker' | 'settings' | 'atMostOnce' | 'operatorActionsMax' | 'attemptsMax' | 'skewDrawn'> & { oldRules: RuleSet | string | null }): FixedOptions {
  return {
    ...(plan.broker !== null ? { broker: plan.broker } : {}),
    ...(plan.operatorActionsMax !== undefined ? { operatorActionsMax: plan.operatorActionsMax } : {}),
    ...(plan.attemptsMax !== undefined ? { attemptsMax: plan.attemptsMax } : {}),
    ...(plan.skewDrawn === true && plan.oldRules !== null ? { skewDrawn: true as const } : { skew: plan.oldRules !== null }),
    ...(plan.settings !== undefined ? { settings: plan.settings } : {}),
    ...(plan.atMostOnce === true ? { atMostOnce: true } : {}),
  };
}

/** Which stepper runs engines: the fast path derived from the statechart, or XState's own `transition()`. */
export type StepperKind = 'compiled' | 'xstate';

const built = { compiled: new WeakMap<RuleSet, Stepper>(), xstate: new WeakMap<RuleSet, Stepper>() };

/** The stepper of a rule set, built once per rule set (a worker runs many tasks of one plan). */
function stepperOf(rules: RuleSet, kind: StepperKind): Stepper {
  let s = built[kind].get(rules);
  if (s === undefined) {
    s = kind === 'compiled' ? compiledStepper(rules) : xstateStepper(rules);
    built[kind].set(rules, s);
  }
  return s;
}

/** Steppers for a plan's rule sets, shared by every seed. */
export function steppersFor(rules: RuleSet, oldRules: RuleSet | null, kind: StepperKind = 'compiled'): Steppers {
  const stepNew = stepperOf(rules, kind);
  if (oldRules === null) return { new: stepNew, old: stepNew, oldQueued: stepNew };
  return { new: stepNew, old: stepperOf(oldRules, kind), oldQueued: stepperOf(queuedRelease(oldRules), kind) };
}

/** A seed's run bounds: its own safety-phase length (drawn with its options), within the plan's bound, and the liveness bound of its attempts limit (options.ts, `healStepsOf`). */
export function seedBounds(bounds: RunBounds, options: WorldOptions): RunBounds {
  return { ...bounds, faultStepsMax: Math.min(bounds.faultStepsMax, options.faultStepsMax), healStepsMax: healStepsOf(bounds.healStepsMax, options) };
}

/**
 * How a shard runs its seeds: `fast` (what `check` runs: counts only, the
 * events of a violating run recorded by running it again) or `reference`
 * (every step recorded, as a trace is; the oracle `fast` is tested against,
 * and the bench's previous representation).
 */
export type SeedRunner = 'fast' | 'reference' | CountingRunner;

/** A runner that counts without recording, as {@link runSeedFast} (the bench passes the previous one to time it beside today's). */
export type CountingRunner = (system: TransitionSystem<World, WorldEvent>, seed: number, bounds: RunBounds) => FastRunResult;

/** One seed's outcome as a shard counts it. */
interface SeedOutcome {
  steps: number;
  tags: Iterable<[string, number]>;
  reached: readonly string[];
  end: RunResult<unknown, unknown>['end'];
  violation: RawCounterexample['violation'] | null;
  /** The run's events, when the runner recorded them. */
  events: (WorldEvent | null)[] | null;
  /** Whether some step of the run added this tag (a kind's counter: a step of that kind was taken). */
  tagged: (tag: string) => boolean;
}

function countedOutcome(run: FastRunResult): SeedOutcome {
  const tags = run.tags;
  return { steps: run.steps, tags, reached: run.reached, end: run.end, violation: run.violation, events: null, tagged: (t) => tags.has(t) };
}

function referenceOutcome(run: RunResult<unknown, WorldEvent>): SeedOutcome {
  const tags = run.tags;
  return { steps: run.steps.length, tags: Object.entries(tags), reached: run.reached, end: run.end, violation: run.violation, events: run.steps.map((s) => s.event), tagged: (t) => (tags[t] ?? 0) > 0 };
}

/** What a shard's seeds share: the plan, how they run, and the counts they add to. */
interface ShardRun {
  plan: CheckPlan;
  /** The plan's rule set, watched for the decisions it is asked (decision-cases.ts), and the runs per case (the result's). */
  rules: RuleSet;
  decisions: number[];
  runner: SeedRunner;
  steppers: Steppers;
  fixed: FixedOptions;
  layout: ReturnType<typeof pairLayout>;
  exercised: FirstSeeds;
  exercisedCount: number;
  /** Tags counted in a map over the shard's runs, written into the result once at the end (and at every early return). */
  tags: Map<string, number>;
  /** The rule set's thresholds (thresholds.ts): a run whose record counts a field up toward one goes deep. */
  thresholds: RuleThresholds;
  result: ShardResult;
}

/** Per rule set, world function (in-process plans only) and plan (its world's settings as text), the thresholds found, once per thread. */
const probed = new WeakMap<RuleSet, Map<CheckPlan['world'] | null, Map<string, RuleThresholds>>>();

/**
 * The thresholds of a plan's rule set (thresholds.ts): its record decisions
 * as asked in the runs of seeds 1..{@link THRESHOLD_PROBE}.seeds of the
 * plan's worlds (whatever seeds the check runs: every thread finds the
 * same), probed. Computed once per thread and plan.
 */
export function planThresholds(plan: CheckPlan, fixed: FixedOptions): RuleThresholds {
  let byWorld = probed.get(plan.rules);
  if (byWorld === undefined) probed.set(plan.rules, (byWorld = new Map()));
  let byPlan = byWorld.get(plan.world ?? null);
  if (byPlan === undefined) byWorld.set(plan.world ?? null, (byPlan = new Map()));
  const key = canonicalJson({ fixed, bounds: plan.bounds, old: plan.oldRules?.name ?? null });
  const known = byPlan.get(key);
  if (known !== undefined) return known;
  const calls = new ProbeCalls();
  const rules = recordingRules(plan.rules, calls);
  const steppers = steppersFor(rules, plan.oldRules);
  for (let seed = 1; seed <= THRESHOLD_PROBE.seeds; seed++) {
    const drawn = swarmOptions(seed, fixed);
    const options = plan.world === undefined ? drawn : plan.world(drawn);
    const system = outboxSystem(options, { rules, ...(plan.oldRules ? { oldRules: plan.oldRules } : {}) }, steppers);
    try {
      runSeedFast(system, seed, seedBounds(plan.bounds, options));
    } catch (err) {
      // A broken decision is the check's own finding, where its seed meets it; the calls before it are kept.
      if (!(err instanceof RuleFault)) throw err;
    }
  }
  const found = probeThresholds(plan.rules, calls.calls, calls.bodyCalls);
  byPlan.set(key, found);
  return found;
}

/** What {@link runOneSeed} tells the shard's loop: go on, stop at a broken decision, or stop after a violation (`--stop-on-first`). */
const SEED_DONE = 0;
const SEED_FAULT = 1;
const SEED_STOP = 2;

/** Runs seeds [from, to) of a plan. */
export function runShard(plan: CheckPlan, from: number, to: number, onRun?: (done: number) => void, runner: SeedRunner = 'fast'): ShardResult {
  const result = emptyShard();
  const fixed = fixedOptions(plan);
  // The pairs of feature values each run exercised, by first seed; once all have, later seeds are not read.
  const layout = pairLayout(fixed);
  const exercised = noFirstSeeds(layout);
  result.exercised = exercised;
  result.longLife = noLongLife();
  const decisions = (result.decisions = noDecisionRuns());
  // The checked rule set as the seeds run it: each decision marks the case of input it was asked on
  // (decision-cases.ts). The old version's, under skew, is not counted: the report is of the rule set checked.
  const rules = watchedRules(plan.rules, SEED_MARKS);
  const thresholds = plan.thresholds === false ? marksOnly(plan.clock ?? { instants: [], waits: [] }, plan.bodies ?? [], plan.ids ?? [], plan.attempts ?? []) : planThresholds(plan, fixed);
  if (plan.thresholds !== false) {
    result.longLife.deep.thresholds = unionThresholds([], thresholds.list);
    result.longLife.deep.clock = { instants: [...thresholds.clock.instants], waits: [...thresholds.clock.waits] };
    result.longLife.deep.bodies = [...thresholds.bodies];
    result.longLife.deep.ids = [...thresholds.ids];
  }
  const shard: ShardRun = { plan, rules, decisions, runner, steppers: steppersFor(rules, plan.oldRules), fixed, layout, exercised, exercisedCount: 0, tags: new Map(), thresholds, result };
  // One seed a call (runOneSeed): the loop's own code stays small, so replacing it on the stack
  // mid-shard is cheap, and the seed's code is compiled once, as a function called per seed.
  for (let seed = from; seed < to; seed++) {
    const after = runOneSeed(shard, seed);
    if (after === SEED_FAULT) break;
    onRun?.(seed - from + 1);
    if (after === SEED_STOP) break;
  }
  for (const [t, n] of shard.tags) result.tags[t] = (result.tags[t] ?? 0) + n;
  return result;
}

/**
 * A run in a line that two runs of a seed agree on exactly when they ran
 * alike: its steps, how it ended and what it violated (what a person reads,
 * before `#`), then every tag's count, the `sometimes` properties it
 * reached and the violation's detail.
 */
function witnessOf(run: SeedOutcome): string {
  const tags = [...run.tags].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `${run.steps} steps, ended ${run.end}${run.violation === null ? '' : `, violating ${run.violation.property}`}#${JSON.stringify([tags, [...run.reached].sort(), run.violation?.detail ?? null])}`;
}

/** The marks of the run under way, in this thread: cleared before each run, counted after (decision-cases.ts). */
const SEED_MARKS = new DecisionMarks();

/** Runs one seed of a shard and counts it, the decisions it asked too. */
function runOneSeed(shard: ShardRun, seed: number): number {
  SEED_MARKS.clear();
  const after = runSeedOfShard(shard, seed);
  // A run a broken decision ended is not counted (the shard stops there).
  if (after !== SEED_FAULT) SEED_MARKS.addTo(shard.decisions);
  return after;
}

/**
 * A seed's options as its run takes them: drawn, the plan's world applied, then steered where the rule
 * set's probe saw its decisions answer otherwise. A seed with a clock may wait to an instant
 * (thresholds.ts, probeClock); its bodies may take a shape a decision reads (body-probe.ts), its ids a
 * shape a decision folds (id-probe.ts). What a run, and the options line of `check --seed S`, show.
 */
export function seedOptions(plan: CheckPlan, fixed: FixedOptions, marks: RuleThresholds, seed: number): WorldOptions {
  const drawn = swarmOptions(seed, fixed);
  const clocked = withClockMarks(plan.world === undefined ? drawn : plan.world(drawn), seed, marks.clock, fixed.settings?.jump !== undefined);
  const limited = withAttemptMarks(clocked, seed, marks.attemptMarks, fixed.attemptsMax !== undefined);
  return withIdMarks(withBodyMarks(limited, seed, marks.bodies), seed, marks.ids);
}

/** Runs one seed of a shard and counts it (its decisions aside: {@link runOneSeed}). */
function runSeedOfShard(shard: ShardRun, seed: number): number {
  const { plan, runner, result } = shard;
  const options = seedOptions(plan, shard.fixed, shard.thresholds, seed);
  const worldRules = { rules: shard.rules, ...(plan.oldRules ? { oldRules: plan.oldRules } : {}) };
  const systemFor = (o: WorldOptions) => outboxSystem(o, worldRules, shard.steppers);
  // Whether a record comes back bigger than it left: then the seed's cycles are sent round again below.
  const watch = new CycleWatch(worldIdNames(options), shard.thresholds);
  const system = watchCycles(systemFor(options), watch);
  const bounds = seedBounds(plan.bounds, options);
  let run: SeedOutcome;
  try {
    run = runner === 'reference' ? referenceOutcome(runSeed(system, seed, bounds)) : countedOutcome((runner === 'fast' ? runSeedFast : runner)(system, seed, bounds));
  } catch (err) {
    if (!(err instanceof RuleFault)) throw err;
    // A broken decision ends the shard: the run cannot go on, and no later seed is needed.
    result.fault = rawFault(system, seed, bounds, options, err, runner);
    return SEED_FAULT;
  }
  result.runs++;
  result.steps += run.steps;
  if (plan.witnessEvery !== undefined && seed % plan.witnessEvery === 0) (result.witnesses ??= {})[seed] = witnessOf(run);
  if (shard.exercisedCount < shard.layout.pairs) shard.exercisedCount += notePairs(shard.layout, shard.exercised, seed, options, (k) => run.tagged(k.counter));
  const tags = shard.tags;
  for (const [t, n] of run.tags) tags.set(t, (tags.get(t) ?? 0) + n);
  // The runs whose bodies (body-shape.ts) or ids (id-shape.ts) had a shape, by the shape's name: the summary's Layers line says which the seeds wrote.
  const shapes = [options.bodyShape === undefined ? null : `${BODY_SHAPE_TAG}${parseBodyShape(options.bodyShape)?.name ?? options.bodyShape}`, options.idShape === undefined ? null : `${ID_SHAPE_TAG}${options.idShape}`];
  for (const shape of shapes) if (shape !== null) tags.set(shape, (tags.get(shape) ?? 0) + 1);
  for (const r of run.reached) result.reached[r] = (result.reached[r] ?? 0) + 1;
  result.ends[run.end] = (result.ends[run.end] ?? 0) + 1;
  if (run.violation === null) {
    // A record back bigger: long life; back at all, in one seed in DEEP_CYCLES.every: deep cycles; back with
    // a field counted up toward a threshold of the rule set's (thresholds.ts), in any seed: deep cycles toward it.
    const deep = !watch.grew && watch.returned && seed % DEEP_CYCLES.every === 0;
    if (!watch.grew && !deep && !watch.toward) return SEED_DONE;
    const counts = (result.longLife ??= noLongLife());
    // One run again for both: long life first, then (when it found nothing) deep cycles.
    let life: ReturnType<typeof longLifeOfSeed>;
    try {
      life = longLifeOfSeed(systemFor, options, seed, bounds, run.steps, counts, watch.grew, deep || watch.toward ? { thresholds: shard.thresholds, towardOnly: !deep } : null);
    } catch (err) {
      // A decision broken past the run (a pending record a janitor tombstoned, drained without its body): the rule file's fault too.
      if (!(err instanceof RuleFault)) throw err;
      result.fault = lifeFault(seed, options, err);
      return SEED_FAULT;
    }
    if (life === null) return SEED_DONE;
    const p = life.violation.property;
    result.violatedRuns[p] = (result.violatedRuns[p] ?? 0) + 1;
    const { cycle } = life;
    result.first[p] ??= { seed, options: life.options, violation: life.violation, events: life.events, longLife: { id: cycle.id, status: cycle.status, rounds: life.rounds, cycleSteps: cycle.to - cycle.from, deep: life.deep, tailFaultSteps: life.tailFaultSteps, ...(life.toward ? { toward: life.toward } : {}) } };
    return plan.stopOnViolation === true ? SEED_STOP : SEED_DONE;
  }
  const p = run.violation.property;
  result.violatedRuns[p] = (result.violatedRuns[p] ?? 0) + 1;
  if (result.first[p] === undefined) {
    result.first[p] = { seed, options, violation: run.violation, events: run.events ?? recordedEvents(system, seed, bounds, run) };
  }
  return plan.stopOnViolation === true ? SEED_STOP : SEED_DONE;
}

/** A broken decision met in long life or a deep cycle (life-position.ts), as data: the events to it in the world of raised budgets it broke in. */
function lifeFault(seed: number, options: WorldOptions, err: RuleFault): RawFault {
  const at = lifePositionOf(err);
  return faultData(err, { seed, step: (at?.events.length ?? 0) + 1, options: at?.options ?? options, events: [...(at?.events ?? [])], longLife: true });
}

/** A broken decision as data, with where it broke. The fast runner keeps no events: the reference runner meets the same fault at the same step and says where. */
function rawFault(system: TransitionSystem<World, WorldEvent>, seed: number, bounds: RunBounds, options: WorldOptions, err: RuleFault, runner: SeedRunner): RawFault {
  let at = runPositionOf<WorldEvent>(err);
  let fault: RuleFault = err;
  if (runner !== 'reference') {
    try {
      runSeed(system, seed, bounds);
    } catch (again) {
      if (!(again instanceof RuleFault)) throw again;
      fault = again;
      at = runPositionOf<WorldEvent>(again);
    }
  }
  return faultData(fault, { seed, step: at?.step ?? 0, options, events: at?.events ?? [] });
}

/** A broken decision as data at a place (its look-ahead too, when it broke in one), its error kept for the report (rule-set-error.ts). */
function faultData(err: RuleFault, at: Omit<RawFault, 'ruleSet' | 'decision' | 'kind' | 'detail' | 'probe'>): RawFault {
  const probe = probePositionOf(err);
  const raw: RawFault = { ruleSet: err.ruleSet, decision: err.decision, kind: err.kind, detail: err.detail, ...at, ...(probe ? { probe } : {}) };
  noteFaultError(raw, err);
  return raw;
}

/** The events of a violating fast run, recorded by running its seed again with every step kept. */
function recordedEvents(system: TransitionSystem<World, WorldEvent>, seed: number, bounds: RunBounds, fast: SeedOutcome): (WorldEvent | null)[] {
  const again = runSeed(system, seed, bounds);
  if (again.steps.length !== fast.steps || canonicalJson(again.violation) !== canonicalJson(fast.violation)) {
    throw new Error(`check: seed ${seed} ran differently when run again to record its trace (${again.steps.length} steps against ${fast.steps})`);
  }
  return again.steps.map((s) => s.event);
}
