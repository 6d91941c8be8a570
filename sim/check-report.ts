/**
 * The report of a check: violations (shrunk and written as traces), which
 * faults, operator actions and healthy events fired and which never did,
 * record statuses reached, the crash-point matrix, and counts at every layer
 * (docs/properties.md, 'Layers the report counts'). The kinds and the matrix
 * are read off the event table (docs/faults.md).
 */
import type { RawCounterexample, ShardResult } from './check.ts';
import { crashPoints } from './outbox/events/crash-points.ts';
import { DECISION_CASES } from './outbox/decision-cases.ts';
import { STATUSES_REACHED } from './outbox/properties.ts';
import { OPTIONAL_DECISIONS } from '../model/rules.ts';
import { wrapPieces } from './wrap-text.ts';
import type { EventTag } from './outbox/events/kind.ts';
import { countedKinds } from './outbox/events/table.ts';
import { ANSWERS_SAME_AS, type Answer } from './outbox/events/broker.ts';
import type { WrittenTrace } from './outbox/record-trace.ts';
import { terminalText } from './terminal-text.ts';
import { countText as n } from './count-text.ts';
import type { PairCoverage } from './outbox/swarm-coverage.ts';
import { renderCoverage, renderSmallWorlds, smallWorldViolationLines, type SmallWorldsReport } from './small-worlds-report.ts';
import type { SmallWorldResult } from './small-worlds.ts';
import { LONG_LIFE_LIMITS, type LongLifeEnd } from './outbox/long-life.ts';
import { DEEP_CYCLES, TOWARD_THRESHOLD, type DeepEnd } from './outbox/deep-cycles.ts';
import { attemptMarksOf, CLOCK_PROBE, THRESHOLD_PROBE, THRESHOLD_PROBE_END } from './outbox/thresholds.ts';
import { ID_PROBE } from './outbox/id-probe.ts';
import { TIME_ORIGIN } from '../model/time.ts';
import { utcText } from './utc-text.ts';
import { ALIKE_FOLD_WORDS, BODY_SHAPE_NAMES, DIGEST_TWIN_HEX, BODY_SHAPE_TAG, bodyShapeWords, parseBodyShape } from './outbox/body-shape.ts';
import { ID_SHAPE_NAMES, ID_SHAPE_TAG, idShapeWords, idText } from './outbox/id-shape.ts';
import { BODY_PROBE } from './outbox/body-probe.ts';
import type { LongLifeCounts } from './outbox/long-life-seed.ts';


/**
 * The tags that count the kinds of one table tag a check should see fire
 * (docs/faults.md). A broker answer the same as another (`ok:false` beside
 * a 400) is not among them: it is offered only where the rule sets tell its
 * reply apart, and elsewhere the other stands for it, so the report lists
 * it only when it fired ({@link firedToo}).
 */
export function kindsTagged(tag: EventTag, skew: boolean): string[] {
  return countedKinds()
    .filter((k) => k.tag === tag && (skew || !k.needsOldRules) && !ANSWERS_SAME_AS.has(k.name as Answer))
    .map((k) => k.counter);
}

/** The counters of the answers the same as another that fired in `merged` (listed after the others). */
function firedToo(tag: EventTag, merged: ShardResult): string[] {
  return countedKinds()
    .filter((k) => k.tag === tag && ANSWERS_SAME_AS.has(k.name as Answer) && (merged.tags[k.counter] ?? 0) > 0)
    .map((k) => k.counter);
}

/** Fault kinds a check must see fire, by the tag that marks them. */
export function faultKinds(skew: boolean): string[] {
  return kindsTagged('fault', skew);
}

/** The name of the kind a counter tag counts (`answer:lost-reply` is `lost-reply`, `layer:written` is `produce`). */
export function kindName(counter: string): string {
  return countedKinds().find((k) => k.counter === counter)?.name ?? counter;
}

/** Each durable write once, with the crash tags just before it and during it (events/crash-points.ts). */
export const CRASH_POINTS = crashPoints();

/** Counts at every layer. */
export interface Layers {
  bodiesWritten: number;
  recordsRead: { found: number; absent: number; corrupt: number; unknownVersion: number };
  claimsTaken: number;
  postsSent: number;
  bodiesStored: number;
  /**
   * Stored POSTs of a body the broker had already received for the id: each is
   * one more effect for a consumer that is not idempotent (counted in every
   * broker mode; a dedupe that answers a duplicate without storing it adds none).
   */
  duplicateDeliveries: number;
  deliveriesReported: number;
  /** Runs whose bodies had each shape besides one letter (sim/outbox/body-shape.ts), by the shape's name. */
  bodyShapes: Record<string, number>;
  /** Runs whose ids had each shape (sim/outbox/id-shape.ts), by the shape's name. */
  idShapes: Record<string, number>;
}


/** Layer counts from a run's tags. */
/** Names as a reader lists them: `a, b and c`. */
function andList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The counts of the tags that start with `prefix`, by the rest of their names (a shape's runs: body-shape.ts, id-shape.ts). */
function taggedAfter(tags: Record<string, number>, prefix: string): Record<string, number> {
  return Object.fromEntries(Object.entries(tags).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));
}

export function layersOf(tags: Record<string, number>): Layers {
  const t = (k: string) => tags[k] ?? 0;
  return {
    bodiesWritten: t('layer:written'),
    recordsRead: { found: t('read:found'), absent: t('read:absent'), corrupt: t('read:corrupt'), unknownVersion: t('read:unknown-version') },
    claimsTaken: t('layer:claim'),
    postsSent: t('layer:post'),
    bodiesStored: t('layer:stored'),
    duplicateDeliveries: t('layer:duplicate'),
    deliveriesReported: t('layer:reported'),
    bodyShapes: taggedAfter(tags, BODY_SHAPE_TAG),
    idShapes: taggedAfter(tags, ID_SHAPE_TAG),
  };
}

/** A violation as reported. */
export interface ReportedViolation {
  property: string;
  seed: number;
  trace: string;
  path: string;
  steps: number;
  stepsBeforeShrink: number;
  runs: number;
  subject: string;
  body: string;
  layer: string;
  detail: string;
  replay: string;
  /** Set when long life found it: the record sent round its cycle again. */
  longLife?: RawCounterexample['longLife'];
}

/** The whole report; `--json` prints it. */
export interface CheckReport {
  /** No property violated, in the small worlds nor in the swarm, and the check ran to its end: false for an interrupted one. */
  ok: boolean;
  /** The small worlds explored before the swarm; null when not run (`--swarm-only`, `--seed`, `--shard`, merge). */
  smallWorlds: SmallWorldsReport | null;
  /** False when only the small worlds ran (`--small-worlds-only`): the swarm's fields below are then empty. */
  swarm: boolean;
  /** Which pairs of the swarm's feature values occurred in the seeds run; null when not computed. */
  coverage: PairCoverage | null;
  /** The first seed of the swarm (what `coverage.allBySeed` counts from). */
  seedStart?: number;
  rules: string;
  /** The older rule set given with `--old-rules`: every seed and the skewed small worlds ran its engines beside (null without it). */
  oldRules: string | null;
  /**
   * The upgrade from the rule set the checked one extends (`extendRules`),
   * when no `--old-rules` was given: run in the skewed small worlds by
   * default, or left out with the command that checks it (a rolling deploy
   * runs both side by side). Absent when the rule set extends none.
   */
  upgrade?: UpgradeNote;
  /**
   * A shard (`--shard`) and a merge of shards: the small worlds (the suite of
   * bounded worlds, the upgrade's skewed worlds among them) were not run,
   * only the swarm's seeds; `command` runs them, once, beside the shards.
   * Absent from every other report.
   */
  smallWorldsNotRun?: { command: string };
  runs: number;
  steps: number;
  seconds: number;
  violations: ReportedViolation[];
  reached: {
    /** Steps per fault kind, by its counter tag. */
    faults: Record<string, number>;
    /** Steps per operator action, by its counter tag. */
    operator: Record<string, number>;
    /** Steps per healthy kind that has a tag of its own (the healthy answer, restarts, produced files). */
    normal: Record<string, number>;
    /** Counter tags of the faults and operator actions that never fired. */
    neverFired: string[];
    /** Runs in which some record was in each status (and each park reason), by its `reached:` property's name. */
    statuses: Record<string, number>;
    /** The statuses and park reasons no run reached (as `QUEUED`, `PARKED:retry-window-exhausted`): nothing was shown about records in them. */
    statusesNotReached: string[];
    /** Crashes just before each durable write, and during it (the POST); each crash counted once. */
    crashPoints: { write: string; before: number; during: number | null }[];
    /**
     * Per case of a decision's input (`DECISION_CASES`), the runs that asked
     * the rule set's decision on it; a case with 0 is a branch of the rule
     * set no run reached. Null when not counted (shard files of an older
     * version).
     */
    decisions: { decision: string; case: string; runs: number }[] | null;
  };
  layers: Layers;
  ends: Record<string, number>;
  /** What long life did in the swarm (sim/outbox/long-life.ts); null when not counted (a merge of shard files from before it). */
  longLife: LongLifeCounts | null;
}

/** How many of each end, in the order and words of `words`, the ends that did not happen left out. */
function endsText(words: Readonly<Record<string, string>>, counts: Readonly<Record<string, number>>): string {
  return Object.entries(words)
    .filter(([k]) => (counts[k] ?? 0) > 0)
    .map(([k, w]) => `${n(counts[k] ?? 0)} ${w}`)
    .join(', ');
}

/** How each long life ended, in words. */
const LONG_LIFE_ENDS: Record<LongLifeEnd, string> = {
  violation: 'broke a property',
  'stopped-growing': 'stopped growing',
  'did-not-repeat': 'could not be taken again',
  'rounds-bound': `hit the bound of ${LONG_LIFE_LIMITS.roundsMax} rounds`,
  'steps-bound': `hit the bound of ${n(LONG_LIFE_LIMITS.stepsMax)} steps`,
};

/** The summary's line on long life: how many runs brought a record back bigger, and what sending their cycles round again found. */
export function longLifeLine(l: LongLifeCounts): string {
  const differed = l.differed === 0 ? '' : `; ${n(l.differed)} runs ran otherwise when run again (a rule set keeping state between calls?) and were left out`;
  if (l.runs === 0) return `long life: no run brought a record back to a status bigger than it left it${differed}`;
  return `long life: ${n(l.runs)} runs brought a record back bigger; ${n(l.cycles)} cycles sent round again (${n(l.rounds)} rounds, ${n(l.steps)} steps): ${endsText(LONG_LIFE_ENDS, l.ends)}${differed}`;
}

/** How each deep cycle ended, in words. */
const DEEP_ENDS: Record<DeepEnd, string> = {
  violation: 'broke a property',
  settled: 'settled clean',
  'did-not-repeat': 'could not be taken again',
  'steps-bound': `hit the bound of ${n(DEEP_CYCLES.stepsMax)} steps`,
  'below-threshold': `still below their threshold after ${n(TOWARD_THRESHOLD.roundsMax)} rounds`,
};

/** How a deep cycle's run went on after its rounds (`toward`: rounds taken until a field passed a threshold of the rule set's). */
export function deepTail(faultSteps: number, toward?: { field: string; at: number; deviated: boolean; crossing?: true }): string {
  const past = toward === undefined ? '' : ` (its ${toward.field} past ${n(toward.at)}, a threshold of the rule set's)`;
  if (toward?.crossing === true) return `${past}, then the round that brought it there, or the next, taken again with one event taken otherwise (${n(faultSteps)} steps), then faults stopped`;
  if (toward?.deviated === true) return `${past}, then once more with one event taken otherwise (${n(faultSteps)} steps), then faults stopped`;
  return past + (faultSteps === 0 ? ', then faults stopped' : `, then ${n(faultSteps)} more steps of faults before they stopped`);
}

/** The summary's line on deep cycles: the sampled runs in which a record came back, and how their cycles taken many times ended. */
export function deepCyclesLine(l: LongLifeCounts): string {
  const d = l.deep;
  const head = `deep cycles (one seed in ${DEEP_CYCLES.every}, a cycle taken ${DEEP_CYCLES.rounds} more times, then faults stop at once or after up to ${DEEP_CYCLES.tailFaultSteps} more steps)`;
  if (d.runs === 0) return `${head}: no sampled run brought a record back to a status no bigger than it left it (one back bigger goes to long life)`;
  // Runs toward a threshold come from any seed, not only the sampled ones: the count says so.
  const toward = d.toward === undefined || d.toward === 0 ? '' : ` (${n(d.toward)} toward a threshold of the rule set's, from any seed, up to ${n(TOWARD_THRESHOLD.roundsMax)} rounds then ${n(TOWARD_THRESHOLD.tails)} tails)`;
  return `${head}: ${n(d.runs)} runs, ${n(d.cycles)} cycles${toward}, ${n(d.steps)} steps: ${endsText(DEEP_ENDS, d.ends)}`;
}

/**
 * The summary's line on the thresholds the probe saw (thresholds.ts), or
 * null when no probe ran: which record numbers the rule set acts past, and
 * the probe's range, so that a clean verdict says how far it looked (a rule
 * that acts only past a larger value is reached by the fixed rounds alone).
 */
export function thresholdsLine(l: LongLifeCounts): string | null {
  const seen = l.deep.thresholds;
  if (seen === undefined) return null;
  const range = `values 0-${n(THRESHOLD_PROBE.max)} of each number of a record one by one and up to ${n(THRESHOLD_PROBE_END)} by halving, in decisions asked in seeds 1-${n(THRESHOLD_PROBE.seeds)}`;
  if (seen.length === 0) return `thresholds: none seen (probed: ${range}); a rule acting past a larger value meets only deep cycles' ${n(DEEP_CYCLES.rounds)} rounds`;
  const attempts = attemptMarksOf(seen);
  const limit = attempts.length === 0 ? '' : `; one seed in two whose drawn attempts limit does not pass attempts ${n(attempts[0])}${attempts.length > 1 ? ' (or the next)' : ''} takes a limit 2 past it`;
  return `thresholds: the rule set answers otherwise from ${seen.map((t) => `${terminalText(t.field)} ${n(t.at)}`).join(', ')} (probed: ${range}); runs counting one up go deep toward it${limit}`;
}

/**
 * The summary's line on where the clock changes the rule set's answers, as
 * the probe saw (thresholds.ts, probeClock), or null when no probe ran: the
 * instants (each with the wall-clock time a decision reads there) and the
 * waits after a record's time, and how far the probe looked.
 */
export function clockLine(l: LongLifeCounts): string | null {
  const seen = l.deep.clock;
  if (seen === undefined) return null;
  const range = `every ${n(CLOCK_PROBE.fineStep)} ticks to ${n(CLOCK_PROBE.fineEnd)}, every ${n(CLOCK_PROBE.coarseStep)} to ${n(CLOCK_PROBE.end)}, doubling to ${n(CLOCK_PROBE.farEnd)}, a change placed to the tick`;
  if (seen.instants.length + seen.waits.length === 0) return `clock: no decision answers otherwise as time passes (probed: ${range})`;
  const marks = [
    ...(seen.instants.length === 0 ? [] : [`at ${seen.instants.map((t) => `tick ${n(t)} (${utcText(TIME_ORIGIN + t)})`).join(', ')}`]),
    ...(seen.waits.length === 0 ? [] : [`${seen.waits.map((t) => n(t)).join(', ')} ticks after a record's time`]),
  ];
  return `clock: decisions answer otherwise ${marks.join('; and ')} (probed: ${range}); one seed in two with a clock waits there`;
}

/**
 * The summary's line on the body shapes the rule set's decisions read, as
 * the probe saw (body-probe.ts), or null when no probe ran: a size from
 * which an answer changes, the characters it changes on, and how the probe
 * looked, so that a clean verdict says whether sizes and characters were
 * asked at all.
 */
export function bodiesLine(l: LongLifeCounts, smallWorlds: boolean): string | null {
  const seen = l.deep.bodies;
  if (seen === undefined) return null;
  const named = BODY_SHAPE_NAMES.filter((s) => s !== 'large');
  const alike = Object.values(ALIKE_FOLD_WORDS);
  const range = `bodies of 2 to ${n(2 ** BODY_PROBE.exponentMax + 1)} characters, a change placed to the character, bodies ${andList(named)}, and a new body that differs from the record's only by ${alike.slice(0, -1).join(', ')} or ${alike[alike.length - 1]}, or whose digest shares its first ${DIGEST_TWIN_HEX} hex digits with the record's`;
  if (seen.length === 0) return `bodies: no decision nor envelope answers otherwise on a body's size or characters (probed: ${range}, in the decisions and in the envelope: its body as read back and its other fields, such as the key)`;
  const marks = seen.map((s) => {
    const p = parseBodyShape(s);
    return p?.name === 'large' && p.chars !== null ? `from ${n(p.chars)} characters` : `${s} (${bodyShapeWords(s)})`;
  });
  return `bodies: decisions or the envelope answer otherwise on bodies ${marks.join(', ')} (probed: ${range}, in the decisions and in the envelope: its body as read back and its other fields, such as the key); one seed in four takes such bodies${smallWorlds ? ', and the small worlds search the default world with each, and two ids named alike with one such body' : ''}`;
}

/**
 * The summary's line on the id shapes the rule set's decisions fold, as the
 * probe saw (id-probe.ts), or null when no probe ran: the shapes whose two
 * ids share a key (or an answer), and what was asked, so that a clean
 * verdict says whether ids that differ only by case, normalisation or a
 * trailing space were asked at all.
 */
export function idsLine(l: LongLifeCounts, smallWorlds: boolean): string | null {
  const seen = l.deep.ids;
  if (seen === undefined) return null;
  const range = `the envelope, admit, selectable and sweepable, for ids ${andList(ID_SHAPE_NAMES)}`;
  if (seen.length === 0) return `ids: no decision folds two ids that differ only by case, normalisation, a trailing space or past their 199th character, nor two of ${n(ID_PROBE.collideIds)} plain ids order-0 to order-${ID_PROBE.collideIds - 1} in one cycle's envelope, nor order-0 to order-${ID_PROBE.epochIds - 1} requeued up to ${n(ID_PROBE.epochsMax)} times against them (probed: ${range})`;
  const marks = seen.map((s) => `${s} (${idShapeWords(s)})`);
  return `ids: decisions fold ids ${marks.join(', ')} (probed: ${range}); one seed in four of two ids takes such ids${smallWorlds ? ', and the small worlds search the world of 2 ids named alike with each' : ''}`;
}

/** Builds the report of a merged check. */
export function buildReport(
  merged: ShardResult,
  written: WrittenTrace[],
  meta: { rules: string; oldRules: string | null; skewed?: boolean; seconds: number; replayCommand: (path: string) => string; smallWorlds?: SmallWorldsReport | null; swarm?: boolean; coverage?: PairCoverage | null; seedStart?: number },
): CheckReport {
  const skew = meta.oldRules !== null || meta.skewed === true;
  const count = (tag: EventTag) => Object.fromEntries([...kindsTagged(tag, skew), ...firedToo(tag, merged)].map((k) => [k, merged.tags[k] ?? 0]));
  const faults = count('fault');
  const operator = count('operator');
  const violations: ReportedViolation[] = written.map((w) => {
    const first = merged.first[w.violation.property];
    return {
      property: w.violation.property,
      seed: first?.seed ?? w.trace.header.seed,
      trace: w.trace.id,
      path: w.path,
      steps: w.stepsAfter,
      stepsBeforeShrink: w.stepsBefore,
      runs: merged.violatedRuns[w.violation.property] ?? 0,
      subject: w.violation.subject,
      body: w.violation.body,
      layer: w.violation.layer,
      detail: w.violation.detail,
      replay: meta.replayCommand(w.path),
      ...(first?.longLife !== undefined && first.seed === w.trace.header.seed ? { longLife: first.longLife } : {}),
    };
  });
  const smallWorlds = meta.smallWorlds ?? null;
  return {
    ok: violations.length === 0 && (smallWorlds?.ok ?? true),
    smallWorlds,
    swarm: meta.swarm ?? true,
    coverage: meta.coverage ?? null,
    ...(meta.seedStart !== undefined ? { seedStart: meta.seedStart } : {}),
    rules: meta.rules,
    oldRules: meta.oldRules,
    runs: merged.runs,
    steps: merged.steps,
    seconds: meta.seconds,
    violations,
    reached: {
      faults,
      operator,
      normal: count('normal'),
      neverFired: [...Object.keys(faults), ...Object.keys(operator)].filter((k) => (merged.tags[k] ?? 0) === 0),
      statuses: merged.reached,
      statusesNotReached: STATUSES_REACHED.map((p) => p.name).filter((name) => (merged.reached[name] ?? 0) === 0).map(statusName),
      crashPoints: CRASH_POINTS.map((c) => ({ write: c.write, before: merged.tags[c.before] ?? 0, during: c.during === null ? null : (merged.tags[c.during] ?? 0) })),
      decisions: decisionsAsked(merged.decisions),
    },
    layers: layersOf(merged.tags),
    ends: merged.ends,
    longLife: merged.longLife ?? null,
  };
}

/** Under the layer counts: why one can exceed another, in words a first-time reader follows (docs/properties.md, 'Layers the report counts'). */
export const LAYERS_EXPLAINED: readonly string[] = [
  '  How to read these: each layer counts events, not distinct bodies, so a later layer can exceed an earlier one.',
  '    POSTs sent counts every attempt, retries included. Bodies stored counts the POSTs whose body the broker kept:',
  '    a POST lost on the way stores nothing, and a copy of a body it already holds is not stored again (the broker',
  '    answers "ok", or 409 in mode id-409) unless it has forgotten that id (a dedupe window) or keeps every copy.',
  '    Deliveries reported counts every report that a body was delivered: the record written DELIVERED and its file',
  '    archived are two reports of one delivery, and a body sent again (after a crash or a lost reply) that the broker',
  '    answers "ok" as a duplicate is reported again with no new body stored. So deliveries reported above bodies',
  '    stored is expected, and so is the reverse (a body stored whose reply was lost is not reported, and one stored',
  '    again after a dedupe window is stored twice); whether a body was lost or delivered twice is what the',
  '    properties (RESULT above) decide.',
];

/**
 * The pairs the runs exercised, under the pairs drawn: a value that switches
 * kinds on (a fault, an operator budget) counts only in a run that took a
 * step of one of them, so a pair drawn in seeds whose runs never took the
 * step shows here as not exercised.
 */
export function renderExercised(c: PairCoverage, from: number): string[] {
  const after = Object.entries(c.coveredAfter).map(([k, v]) => `${n(v)} after ${n(Number(k))} seeds`).join(', ');
  const all = c.allBySeed === null ? '' : `, all by seed ${c.allBySeed} (${n(c.allBySeed - from + 1)} seeds)`;
  const lines = [`  exercised (a run took a step of each kind the values switch on): ${n(c.covered)}/${n(c.pairs)} pairs${all}; ${after}`];
  const left = c.pairs - c.covered;
  if (left > 0) lines.push(`  ${n(left)} pair${left === 1 ? '' : 's'} never exercised${c.missing.length < left ? ` (the ${c.missing.length} shortest)` : ''}: ${c.missing.join('; ')}`);
  return lines;
}

/**
 * Under a clean result: what it covers (with the swarm's decision counts,
 * the cases of each decision a run asked), and where what it cannot cover is
 * listed: a clean verdict is no proof of more.
 */
export function cleanScope(decisionsCounted: boolean): string[] {
  const notInMenu = "docs/faults.md, 'Not in the menu today' lists what the world cannot produce.";
  return decisionsCounted
    ? ['  It covers the faults the world can produce (docs/faults.md) and the cases of each rule decision a run asked', `  (below, under Rule decisions asked); ${notInMenu}`]
    : ['  It covers the faults the world can produce (docs/faults.md);', `  ${notInMenu}`];
}

/**
 * The upgrade from the rule set the checked one extends (`CheckReport.upgrade`,
 * docs/rules.md, 'Version skew'): run in the small worlds by default, or left
 * out, and then how to run it.
 */
export interface UpgradeNote {
  /**
   * The name of the rule set the checked one extends; null for a rule file
   * that extends none (written whole, not with `extendRules`): no older
   * version is known, and none ran beside it.
   */
  from: string | null;
  /**
   * True when this check ran it: its skewed small worlds and the swarm's
   * seeds that drew skew, engines of both rule sets side by side that
   * upgrade mid-run. False when it was left out (`--no-upgrade`, or a base
   * that is not a catalog rule set).
   */
  checked: boolean;
  /** When checked: the skewed small worlds the check planned (those the suite's bound of states left unsearched among them). */
  worlds?: number;
  /** When checked: the swarm's seeds that ran it (one in four; options.ts, `skewDrawnFor`). */
  seeds?: number;
  /** When left out: the check of both side by side (null when `from` is not a catalog name: its file must be given); when checked: that check of the small worlds alone, for those the suite's bound of states cut. */
  command: string | null;
}

/** The lines that say which upgrade was checked, or which was not and how to check it. */
function upgradeLines(u: UpgradeNote, skewed: readonly SmallWorldResult[]): string[] {
  // A blind review's key change, written whole, was clean alone and found beside fail-closed: say that nothing ran beside it.
  if (u.from === null) return [`Not checked: a rolling upgrade. This rule set extends no catalog rule set, so no older version ran beside it; a change is deployed beside the rules before it (version skew), and some flaws show only there: check it with ${terminalText(u.command ?? '--old-rules <the rules deployed today>')}`];
  if (u.checked) {
    const planned = u.worlds ?? skewed.length;
    const decided = skewed.filter((w) => w.complete || w.violations.length > 0).length;
    const worlds = `${planned} skewed small world${planned === 1 ? '' : 's'}`;
    const seeds = u.seeds === undefined ? '' : `${planned > 0 ? ' and' : ''} in ${n(u.seeds)} of the swarm's seeds (one in four)`;
    if (decided < planned) {
      // Searched last, they are the first the suite's bound of states leaves out: not a check of the upgrade.
      const how = u.command ?? `npx outbox-sim check --rules <this rule set> --old-rules ${u.from} --small-worlds-only`;
      return [`Upgrade checked only in part: ${terminalText(u.from)}, which this rule set extends, ran beside it to the end in ${decided} of the ${worlds}${seeds} (the others were cut by the suite's bound of states); check the upgrade alone: ${terminalText(how)}`];
    }
    return [`Upgrade checked: ${terminalText(u.from)}, which this rule set extends, ran beside it${planned > 0 ? ` in the ${worlds}` : ''}${seeds} (a rolling deploy runs both side by side; --old-rules ${terminalText(u.from)} skews every seed, --no-upgrade leaves the upgrade out; where the rules deployed today are another version, --old-rules <its file> checks beside it)`];
  }
  const how = u.command !== null ? `check it: ${terminalText(u.command)}` : `check it with --old-rules and the file of ${terminalText(u.from)}`;
  return [`Not checked: the upgrade from ${terminalText(u.from)}, which this rule set extends. A rolling deploy runs both side by side (version skew); ${how}`];
}

/** What a shard or a merge of shards left out, and the command that runs it: the verdict above is the seeds' only. */
function notRunLines(command: string): string[] {
  return [
    "Not run: the small worlds (the suite of bounded worlds an unsharded check explores completely, the upgrade's skewed worlds among them);",
    `  shards run the swarm's seeds only, so the result above is theirs. Run the small worlds once beside the shards: ${terminalText(command)}`,
  ];
}

/** How far an interrupted check got: the seeds that ran of those asked, as `check --json`'s `interrupted` counts them. */
export interface InterruptedCounts {
  runs: number;
  seeds: number;
}

/**
 * What of an interrupted check ran: the small worlds searched to their end
 * or to a violation, of the suite's, and the seeds run, of those asked.
 */
export function interruptedScope(i: InterruptedCounts, sw: SmallWorldsReport | null): string {
  const parts: string[] = [];
  if (sw !== null) {
    const planned = sw.worlds.length + sw.unsearched;
    const decided = sw.worlds.filter((w) => w.complete || w.violations.length > 0).length;
    parts.push(`${n(decided)} of ${n(planned)} small world${planned === 1 ? '' : 's'}`);
  }
  if (i.seeds > 0 || sw === null) parts.push(`${n(i.runs)} of ${n(i.seeds)} seed${i.seeds === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** The summary a person reads; an interrupted run's clean result says it is no verdict. */
export function renderReport(r: CheckReport & { interrupted?: InterruptedCounts | null }): string[] {
  const lines: string[] = [];
  lines.push(`outbox-sim check: rules ${terminalText(r.rules)}${r.oldRules ? `, old rules ${terminalText(r.oldRules)} (version skew)` : ''}`);
  const sw = r.smallWorlds;
  if (sw !== null) lines.push(`  small worlds: ${sw.worlds.length} explored, ${n(sw.states)} states, ${sw.seconds.toFixed(1)} s`);
  if (r.swarm) lines.push(`  ${sw !== null ? 'swarm: ' : ''}${n(r.runs)} runs, ${n(r.steps)} steps${sw !== null ? '' : `, ${r.seconds.toFixed(1)} s`}`);
  if (r.swarm && r.longLife !== null) {
    lines.push(`  ${longLifeLine(r.longLife)}`, `  ${deepCyclesLine(r.longLife)}`);
    const thresholds = thresholdsLine(r.longLife);
    if (thresholds !== null) lines.push(`  ${thresholds}`);
    const clock = clockLine(r.longLife);
    if (clock !== null) lines.push(`  ${clock}`);
    const bodies = bodiesLine(r.longLife, sw !== null);
    if (bodies !== null) lines.push(`  ${bodies}`);
    const ids = idsLine(r.longLife, sw !== null);
    if (ids !== null) lines.push(`  ${ids}`);
  }
  if (sw !== null) lines.push(`  ${r.seconds.toFixed(1)} s in all`);
  lines.push('');
  const smallViolated = sw === null ? 0 : new Set(sw.worlds.flatMap((w) => w.violations.map((v) => v.property))).size;
  const violated = new Set([...r.violations.map((v) => v.property), ...(sw === null ? [] : sw.worlds.flatMap((w) => w.violations.map((v) => v.property)))]).size;
  const interrupted = r.interrupted ?? null;
  if (violated === 0 && interrupted !== null) {
    lines.push(`RESULT: interrupted: no violation in what ran (${interruptedScope(interrupted, sw)}); not a verdict`);
  } else if (violated === 0) {
    lines.push('RESULT: no property violated', ...cleanScope(r.swarm && r.reached.decisions !== null));
  } else {
    lines.push(`RESULT: ${violated} propert${violated === 1 ? 'y' : 'ies'} violated${sw === null ? '' : ` (${smallViolated} in the small worlds, ${r.violations.length} in the swarm)`}`);
    if (sw !== null) lines.push(...smallWorldViolationLines(sw));
    for (const v of r.violations) {
      lines.push(`  ${v.property} (${n(v.runs)} runs; first at seed ${v.seed}): ${terminalText(v.detail)}`);
      if (v.longLife !== undefined) lines.push(`    found by ${v.longLife.deep ? 'deep cycles' : 'long life'}: record ${idText(v.longLife.id)} sent round its ${v.longLife.cycleSteps}-step cycle back to ${v.longLife.status} ${n(v.longLife.rounds)} more times${v.longLife.deep ? deepTail(v.longLife.tailFaultSteps, v.longLife.toward) : ''} (the world's operator, crash and corruption budgets raised for them)`);
      lines.push(`    trace ${v.trace}: ${terminalText(v.path)} (shrunk ${v.stepsBeforeShrink} -> ${v.steps} steps)`);
      lines.push(`    replay: ${terminalText(v.replay)}`);
    }
  }
  if (r.smallWorldsNotRun !== undefined) lines.push(...notRunLines(r.smallWorldsNotRun.command));
  if (r.upgrade !== undefined) lines.push(...upgradeLines(r.upgrade, sw === null ? [] : sw.worlds.filter((w) => w.sizes.skew)));
  lines.push('');
  if (sw !== null) lines.push(...renderSmallWorlds(sw));
  if (!r.swarm) return lines;
  if (r.coverage !== null) {
    lines.push(...renderCoverage(r.coverage, r.seedStart ?? 1));
    if (r.coverage.exercised !== undefined) lines.push(...renderExercised(r.coverage.exercised, r.seedStart ?? 1));
  }
  const counts = (title: string, c: Record<string, number>) => {
    lines.push(title);
    for (const [k, v] of Object.entries(c)) lines.push(`  ${kindName(k).padEnd(24)} ${n(v)}`);
  };
  counts('Faults fired (steps):', r.reached.faults);
  counts('Operator actions (steps):', r.reached.operator);
  counts('Healthy events (steps):', r.reached.normal);
  if (r.reached.neverFired.length > 0) {
    lines.push(`WARNING: these never fired, so nothing was shown about them: ${r.reached.neverFired.map(kindName).join(', ')}`);
  }
  lines.push('Record statuses reached (runs):');
  for (const [k, v] of Object.entries(r.reached.statuses).sort()) lines.push(`  ${statusName(k).padEnd(32)} ${n(v)}`);
  const notReached = r.reached.statusesNotReached;
  if (notReached.length > 0) {
    lines.push(...wrapped('  not reached: ', [...notReached.slice(0, -1), `${notReached[notReached.length - 1]} (no run had a record in it: nothing was shown about one)`]));
  }
  lines.push('Crash points (crashes just before each durable write, and during the POST; each crash once):');
  for (const c of r.reached.crashPoints) {
    lines.push(`  ${c.write.padEnd(30)} ${String(c.before).padStart(7)}${c.during === null ? '' : ` before, ${c.during} during`}`);
  }
  lines.push(...renderDecisions(r.reached.decisions));
  const l = r.layers;
  lines.push('Layers:');
  // Which runs wrote bodies of another shape than one letter (astral, large, ...): a rule acting on a body's content meets only them.
  const shapes = Object.entries(l.bodyShapes).sort(([a], [b]) => (a < b ? -1 : 1));
  const shaped = shapes.length === 0 ? ' (all one letter)' : ` (besides one letter: ${shapes.map(([k, v]) => `${terminalText(k)} in ${n(v)} runs`).join(', ')})`;
  // Which runs had ids of a shape (case, accent, space): a rule folding ids meets only them.
  const idShapes = Object.entries(l.idShapes ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  const idShaped = idShapes.length === 0 ? '' : `; ids of a shape: ${idShapes.map(([k, v]) => `${terminalText(k)} in ${n(v)} runs`).join(', ')}`;
  lines.push(`  bodies written ${n(l.bodiesWritten)}${shaped}${idShaped}; records read: found ${n(l.recordsRead.found)}, absent ${n(l.recordsRead.absent)}, corrupt ${n(l.recordsRead.corrupt)}, unknown version ${n(l.recordsRead.unknownVersion)}`);
  lines.push(`  claims taken ${n(l.claimsTaken)}; POSTs sent ${n(l.postsSent)}; bodies stored by the broker ${n(l.bodiesStored)}; duplicate deliveries ${n(l.duplicateDeliveries)}; deliveries reported ${n(l.deliveriesReported)}`);
  lines.push(...LAYERS_EXPLAINED);
  // A run that ended quiet may still count as violating (RESULT's runs): its cycles sent round again broke a property.
  const later = r.longLife === null ? 0 : (r.longLife.ends.violation ?? 0) + (r.longLife.deep.ends.violation ?? 0);
  const afterwards = later === 0 ? '' : `; ${n(later)} more broke a property once a cycle of theirs was sent round again (long life and deep cycles, above)`;
  lines.push(`Runs ended: ${Object.entries(r.ends).map(([k, v]) => `${k} ${n(v)}`).join(', ')}${afterwards}`);
  if ((r.ends.waiting ?? 0) > 0) lines.push(...WAITING_EXPLAINED);
  return lines;
}

/** What a run that ended `waiting` showed, and where it is judged instead (docs/rules.md, 'Time'). */
const WAITING_EXPLAINED = [
  '  waiting: the run went quiet in a world without a clock while a rule still waited for a later time (a back-off, a window);',
  "  its time stands still, so whether the body settles is not judged there but in the worlds with a clock (one seed in four, the suite's clock world).",
];

/** A status's `reached:` property's name as the report shows it (`PARKED:max-attempts`). */
function statusName(property: string): string {
  return property.replace(/^reached:/, '');
}

/** The runs per case of each decision's input, as the report keeps them; null when not counted. */
function decisionsAsked(runs: readonly number[] | undefined): CheckReport['reached']['decisions'] {
  if (runs === undefined || runs.length !== DECISION_CASES.length) return null;
  return DECISION_CASES.map((c, i) => ({ decision: c.decision, case: c.name, runs: runs[i] }));
}

/**
 * The decisions asked, a line per decision (the cases asked, with their
 * runs), then the cases no run asked: branches of the rule set the verdict
 * says nothing about (docs/properties.md, 'Which decisions a check asked').
 * A decision never asked at all (an optional one the rule set leaves out) is
 * left out.
 */
export function renderDecisions(decisions: CheckReport['reached']['decisions']): string[] {
  if (decisions === null) return [];
  const lines = ["Rule decisions asked in the swarm's runs (runs, per case of input; a case not asked is a branch of the rule set no run reached):"];
  const names = [...new Set(decisions.map((d) => d.decision))];
  for (const name of names) {
    const of = decisions.filter((d) => d.decision === name);
    const asked = of.filter((d) => d.runs > 0);
    if (asked.length === 0 && OPTIONAL_DECISIONS.has(name)) continue;
    lines.push(...wrapped(`  ${name.padEnd(11)}`, asked.length === 0 ? ['never asked'] : asked.map((d) => `${d.case} ${n(d.runs)}`)));
    const not = of.filter((d) => d.runs === 0);
    if (not.length > 0 && asked.length > 0) lines.push(...wrapped(`  ${''.padEnd(11)}`, not.map((d, i) => (i === 0 ? `not asked: ${d.case}` : d.case))));
  }
  return lines;
}

/** Items after `lead`, separated by "; ", in lines of at most DECISION_LINE_MAX characters (an item is never split), continued under the first. */
function wrapped(lead: string, items: readonly string[]): string[] {
  const pieces = items.map((item, i) => (i === items.length - 1 ? item : `${item};`));
  // Continued under the first item, the decision's name not repeated.
  return wrapPieces(pieces, DECISION_LINE_MAX - lead.length).map((l, i) => (i === 0 ? lead : ' '.repeat(lead.length)) + l);
}

/** Width of a decision's lines in the report. */
const DECISION_LINE_MAX = 110;
