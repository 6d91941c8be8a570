/**
 * `outbox-sim explore`: breadth-first search of one bounded world with the
 * whole fault vocabulary, checking the `always` properties at every state
 * and the `eventually` ones (no-silent-loss and settled-after-healing where
 * the system would be quiet once faults stop, quiet-after-healing as
 * lassos: retrying forever). Exit 0 when the whole bounded space holds no
 * violation (a proof for that world), 1 when a property is violated (the
 * shortest counterexample is written as a trace), 3 when a bound
 * (--max-states, --max-depth, --max-memory) stopped the search with nothing
 * found: not a proof, and marked `complete: false`; 2 on bad input.
 *
 * An interrupt request (sim/interrupt.ts) stops the search at its next progress
 * point (`stoppedBy: 'interrupted'`, complete: false): the partial summary is
 * printed, violations found so far written, exit 130 or 143. explore installs
 * no signal handlers of its own, unlike check: its search is one synchronous
 * loop that never gives the event loop a turn, so a handler would run only
 * after the search had ended. A signal reaches the search as a request in
 * the shared interrupt cell, written by the supervising thread
 * (supervisor.ts) while the command runs on a worker thread.
 */
import { countNoun, countText } from '../count-text.ts';
import { atMostOnceAsked } from './opt-in-property.ts';
import { BROKER_MODES } from '../../model/broker.ts';
import { steppersFor } from '../check.ts';
import { outboxProperties } from '../outbox/properties.ts';
import { LOOK_AHEAD_STATES, QUIET_AFTER_HEALING } from '../core/explore-liveness.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from '../outbox/explore-options.ts';
import { counterexampleOf, exploreOutbox, type OutboxSearch } from '../outbox/explore-outbox.ts';
import { writeCounterexample } from '../outbox/record-trace.ts';
import { BOUNDS_DEFAULT } from '../check.ts';
import { rulesPair, replayCommand } from './check-command.ts';
import { probeRuleFiles } from '../rules-state-probe.ts';
import { elapsedSeconds, startClock } from './clock.ts';
import { choiceFlag, intFlag } from './errors.ts';
import type { Io } from './io.ts';
import { faultTraced } from './rule-fault.ts';
import { memoryGuard, memoryMiBDefault, residentPeakBytes } from './memory-guard.ts';
import { progressBar } from './progress.ts';
import { EXIT_PARTIAL } from './exit-codes.ts';
import { terminalText } from '../terminal-text.ts';
import { checkOutputFolder } from './output-place.ts';
import { settingsBanner, settingsOf } from './world-settings.ts';
import { hasClock } from '../outbox/events/clock.ts';
import { interruptExitCode, interruption, type StopCause } from '../interrupt.ts';
import type { Outcome } from './outcome.ts';
import { UsageError } from '../usage-error.ts';
import { newStats } from '../core/por.ts';
import { newCensus } from '../outbox/packed/independence.ts';
import type { PorReport } from '../outbox/explore-por.ts';
import { BODY_SHAPE_FLAG_VALUES, bodyShapeWords, searchBodyShape } from '../outbox/body-shape.ts';
import { ID_SHAPE_FLAG_VALUES, idShapeWords, isIdShape } from '../outbox/id-shape.ts';

export interface ExploreFlags {
  rules?: string;
  oldRules?: string;
  ids?: string;
  bodies?: string;
  sameBodies?: boolean;
  longIds?: boolean;
  idShape?: string;
  bodyShape?: string;
  engines?: string;
  attempts?: string;
  crashes?: string;
  corruptions?: string;
  operator?: string;
  broker?: string;
  property?: string;
  maxStates?: string;
  lookAhead?: string;
  maxDepth?: string;
  maxMemory?: string;
  continue?: boolean;
  out?: string;
  json?: boolean;
  quiet?: boolean;
  /** False with --no-symmetry: every state stored, not one per class of states equal up to renaming pids. */
  symmetry?: boolean;
  /** Partial-order reduction (`explore-por.ts`): the `always` properties only. */
  por?: boolean;
  /** Explore again each time the rule file (or a file it imports) changes, until Ctrl-C (rerun-on-save.ts); the command line's only. */
  watch?: boolean;
}

/** Default bound on stored states. */
export const MAX_STATES_DEFAULT = 2_000_000;

/** What `explore --help` says after the flags: the properties a search checks (the exit codes follow, from help-contract.ts). */
export function exploreHelp(): string {
  const properties = outboxProperties();
  const named = (kind: 'always' | 'eventually') => properties.filter((p) => p.kind === kind).map((p) => p.name).join(', ');
  return [
    '',
    'Checks, at every state searched:',
    `  always: ${named('always')}`,
    `  eventually, where the system would be quiet once faults stop: ${named('eventually')}`,
    `  ${QUIET_AFTER_HEALING}: no reachable cycle of steps the system takes by itself, with the broker giving one`,
    '    steady answer (healthy, or a failure that persists), that never becomes quiet (retrying forever)',
    '  (the JSON names them: "checked": [...])',
  ].join('\n');
}

/** New states between two looks at the memory bound (and the caller's other stop reasons). */
const STOP_EVERY = 1000;

/** The sizes named by flags. */
export function sizesOf(flags: ExploreFlags, skew: boolean): ExploreSizes {
  const d = EXPLORE_DEFAULTS;
  const broker = choiceFlag('--broker', flags.broker, BROKER_MODES, d.broker);
  return {
    ids: flags.idShape !== undefined && flags.ids === undefined ? 2 : intFlag('--ids', flags.ids, d.ids, 1, 2),
    bodiesPerId: intFlag('--bodies', flags.bodies, d.bodiesPerId, 1, 3),
    engines: intFlag('--engines', flags.engines, d.engines, 1, 8),
    attemptsMax: intFlag('--attempts', flags.attempts, d.attemptsMax, 1, 100),
    crashesMax: intFlag('--crashes', flags.crashes, d.crashesMax, 0, 10),
    corruptionsMax: intFlag('--corruptions', flags.corruptions, d.corruptionsMax, 0, 10),
    operatorActionsMax: intFlag('--operator', flags.operator, d.operatorActionsMax, 0, 10),
    broker,
    settings: settingsOf(flags, skew),
    ...(atMostOnceAsked(flags.property, broker) ? { atMostOnce: true } : {}),
    ...(flags.sameBodies === true ? { sameBodies: true } : {}),
    ...(flags.longIds === true ? { longIds: true } : {}),
    ...(flags.idShape === undefined ? {} : { idShape: idShapeFlag(flags) }),
    ...(flags.bodyShape === undefined ? {} : { bodyShape: bodyShapeFlag(flags.bodyShape) }),
    skew,
  };
}

/** `--id-shape`'s world shape (docs/protocol.md, 'Id shapes'), or a one-line usage error: a shape's name, with 2 ids (the default with it), not with --long-ids. */
function idShapeFlag(flags: ExploreFlags): string {
  const text = flags.idShape ?? '';
  if (!isIdShape(text)) throw new UsageError(`--id-shape ${JSON.stringify(text)}: give ${ID_SHAPE_FLAG_VALUES}`);
  if (flags.longIds === true) throw new UsageError('--id-shape and --long-ids exclude each other: give one');
  if (flags.ids !== undefined && flags.ids !== '2') throw new UsageError(`--id-shape names 2 ids: give --ids 2 or leave --ids out`);
  return text;
}

/** `--body-shape`'s world shape (docs/protocol.md, 'Body shapes'), or a one-line usage error. */
function bodyShapeFlag(text: string): string {
  const shape = searchBodyShape(text);
  if (shape === undefined) throw new UsageError(`--body-shape ${JSON.stringify(text)}: give ${BODY_SHAPE_FLAG_VALUES}`);
  return shape;
}

/** The stop reason of a search that an interrupt ended. */
export const INTERRUPTED = 'interrupted';

/** What stopped an interrupted search, as its summary says it. */
function stopperOfInterrupt(cause: StopCause | null): string {
  return cause === 'save' ? 'a save of a watched file (the search was of the version before)' : `an interrupt (${cause ?? 'signal'})`;
}

/** What can end an exploration short of the whole space (`ExploreResult.stoppedBy`). */
export type ExploreStop = 'violation' | 'max-states' | 'max-depth' | 'memory' | 'interrupted' | 'saved';

/**
 * The search's stop reason as a fixed word, and its detail: the memory guard
 * says what it read ("memory (resident 812 MiB, ...)"), and an interrupt is
 * told apart from a watch's save by what requested it.
 */
export function stopOf(stoppedBy: string | null, cause: StopCause | null): { stoppedBy: ExploreStop | null; stopDetail: string | null } {
  if (stoppedBy === null) return { stoppedBy: null, stopDetail: null };
  if (stoppedBy === INTERRUPTED) return { stoppedBy: cause === 'save' ? 'saved' : 'interrupted', stopDetail: null };
  if (stoppedBy === 'violation' || stoppedBy === 'max-states' || stoppedBy === 'max-depth') return { stoppedBy, stopDetail: null };
  if (stoppedBy.startsWith('memory')) return { stoppedBy: 'memory', stopDetail: stoppedBy };
  throw new Error(`explore: a search stopped by an unknown reason: ${stoppedBy}`);
}

/** A violation an exploration found, with its shortest trace. */
export interface ExploreViolation {
  property: string;
  trace: string;
  path: string;
  steps: number;
  detail: string;
  replay: string;
}

/** What `explore --json` prints. */
export interface ExploreResult {
  ok: boolean;
  complete: boolean;
  /**
   * What ended the search short of the whole space, as a fixed word a script
   * can match: the first violation, a bound (`max-states`, `max-depth`,
   * `memory`), a signal (`interrupted`) or a save of a watched file under
   * `--watch` (`saved`); null when the whole space was searched.
   */
  stoppedBy: ExploreStop | null;
  /** The stop in a person's words where the word alone does not say it (a memory stop's readings), else null. */
  stopDetail: string | null;
  /** No violation and the whole bounded space searched. */
  proof: boolean;
  checked: string[];
  explorer: OutboxSearch['explorer'];
  fallback: string | null;
  states: number;
  transitions: number;
  depth: number;
  seconds: number;
  statesPerSecond: number;
  indexBytesPerState: number;
  frontierBytesPerState: number;
  residentBytesPerState: number;
  residentBytesMax: number;
  residentBytesPeak: number;
  collisionBound: number;
  /** Whether states were stored one per class of states equal up to renaming engine pids. */
  symmetry: boolean;
  /** Why symmetry reduction was off (null when on, or turned off by `--no-symmetry`). */
  symmetryOff: string | null;
  /** With --por: what partial-order reduction did (null when not asked for); `used` false when the object explorer searched. */
  por: (PorReport & { used: boolean }) | null;
  /**
   * Quiet states whose liveness was not judged because they wait for a time
   * the search does not reach (no clock, or the clock's horizon): a back-off
   * not over, a window not passed. Give the world a clock to judge them.
   */
  waitingUnjudged: number;
  violations: ExploreViolation[];
}

export async function exploreCommand(flags: ExploreFlags, io: Io): Promise<number> {
  const once = async (): Promise<number> => (await runExplore(flags, io)).code;
  if (flags.watch !== true) return once();
  const { rerunOnSave } = await import('./rerun-on-save.ts');
  return rerunOnSave('explore', flags, io, once);
}

/** The whole of `explore`: the CLI's command and the library's `explore` (sim/api/) both run it. */
export async function runExplore(flags: ExploreFlags, io: Io): Promise<Outcome<ExploreResult>> {
  const pair = await rulesPair(flags.rules, flags.oldRules);
  await probeRuleFiles(pair.loaded);
  const sizes = sizesOf(flags, pair.oldRules !== null);
  const statesMax = intFlag('--max-states', flags.maxStates, MAX_STATES_DEFAULT, 1, 200_000_000);
  // No bound unless given: a level deeper than any reachable state never comes.
  const depthMax = flags.maxDepth === undefined ? undefined : intFlag('--max-depth', flags.maxDepth, 0, 0, 1_000_000);
  // A reduced graph keeps every violating state reachable, not at its depth: a depth bound would cut it unsoundly.
  const por = flags.por === true;
  if (por && depthMax !== undefined) throw new UsageError('--por cannot be combined with --max-depth (partial-order reduction keeps states reachable, not their depth)');
  const memoryMiB = intFlag('--max-memory', flags.maxMemory, memoryMiBDefault(), 1, 1 << 30);
  const lookAhead = intFlag('--look-ahead', flags.lookAhead, LOOK_AHEAD_STATES, 0, 200_000_000);
  const options = exploreOptions(sizes);
  const steppers = steppersFor(pair.rules, pair.oldRules);
  const worldRules = { rules: pair.rules, ...(pair.oldRules ? { oldRules: pair.oldRules } : {}) };
  const outDir = flags.out ?? 'traces/found';
  checkOutputFolder('--out', outDir);
  // --quiet: no header, no progress and no search figures, only how it ended and what it found.
  const quiet = flags.quiet === true;
  if (!flags.json && !quiet) {
    io.out(`outbox-sim explore: rules ${terminalText(pair.rules.name)}${pair.oldRules ? `, old rules ${terminalText(pair.oldRules.name)}` : ''}; ids ${sizes.ids}${sizes.longIds === true ? ' (named alike)' : ''}${sizes.idShape === undefined ? '' : ` (${sizes.idShape}: ${idShapeWords(sizes.idShape)})`}, bodies/id ${sizes.bodiesPerId}${sizes.sameBodies === true ? ' (the same for every id)' : ''}${sizes.bodyShape === undefined ? '' : ` (${sizes.bodyShape}: ${bodyShapeWords(sizes.bodyShape)})`}, engines ${sizes.engines}, attempts limit ${sizes.attemptsMax}, crashes ${sizes.crashesMax}, corruptions ${sizes.corruptionsMax}, operator actions ${sizes.operatorActionsMax}, broker ${sizes.broker}${settingsBanner(sizes.settings ?? {}, true)}; at most ${countNoun(statesMax, 'state')}${depthMax === undefined ? '' : `, traces of at most ${countNoun(depthMax, 'step')}`} and ${countText(memoryMiB)} MiB`);
  }
  const bar = progressBar(flags.json || quiet ? { ...io, tty: false } : io, 'states', statesMax);
  const clock = startClock(io);
  // The process's growth during the search, sampled with the progress: what a stored state costs in all.
  const residentBefore = process.memoryUsage.rss();
  let residentMax = residentBefore;
  const guard = memoryGuard(memoryMiB, (rss) => {
    residentMax = Math.max(residentMax, rss);
  });
  const r = faultTraced(() => exploreOutbox(options, worldRules, steppers, {
    statesMax,
    ...(depthMax === undefined ? {} : { depthMax }),
    stopAtFirst: flags.continue !== true,
    onProgress: (states, depth) => bar.update(states, `depth ${depth}`),
    // The search is one synchronous loop: a signal reaches it as a request polled here. The guard's reading of the resident set keeps residentMax.
    stopReason: () => (interruption() !== null ? INTERRUPTED : guard()),
    beforeGrowth: (bytes) => guard(bytes),
    lookAhead,
    progressEvery: 10_000,
    stopEvery: STOP_EVERY,
    // Partial-order reduction preserves the always properties only: the eventually ones are not checked under it.
    liveness: !por,
    symmetry: flags.symmetry !== false,
    por,
  }), { pair, steppers, options, outDir: flags.out ?? 'traces/found', origin: 'explore' });
  residentMax = Math.max(residentMax, process.memoryUsage.rss());
  const residentPeak = residentPeakBytes() ?? residentMax;
  const residentBytesPerState = (residentMax - residentBefore) / Math.max(1, r.states);
  const seconds = elapsedSeconds(clock);
  bar.stop();
  const violations: ExploreViolation[] = r.violations.map((v) => {
    const c = counterexampleOf(options, v);
    const w = writeCounterexample(outDir, pair, steppers, 0, c.options, c.events, v.violation.property, 'explore', BOUNDS_DEFAULT.healStepsMax, false);
    return { property: v.violation.property, trace: w.trace.id, path: w.path, steps: w.stepsAfter, detail: v.violation.detail, replay: replayCommand(w.path, pair) };
  });
  const statesPerSecond = Math.round(r.states / Math.max(seconds, 1e-9));
  const ok = violations.length === 0;
  const perState = (bytes: number): number => bytes / Math.max(1, r.states);
  const signal = r.stoppedBy === INTERRUPTED ? interruption() : null;
  // An interrupted search exits as the signal says, whatever it found so far (violations found are written and listed).
  const code = signal !== null ? interruptExitCode(signal) : !ok ? 1 : r.complete ? 0 : EXIT_PARTIAL;
  const result: ExploreResult = { ok, complete: r.complete, ...stopOf(r.stoppedBy, signal), proof: ok && r.complete, checked: r.checked, explorer: r.explorer, fallback: r.fallback, states: r.states, transitions: r.transitions, depth: r.depth, seconds, statesPerSecond, indexBytesPerState: perState(r.indexBytes), frontierBytesPerState: perState(r.frontierBytesMax ?? 0), residentBytesPerState, residentBytesMax: residentMax, residentBytesPeak: residentPeak, collisionBound: r.collisionBound, symmetry: r.symmetry, symmetryOff: r.symmetryOff, por: porOf(r, por), waitingUnjudged: r.waitingUnjudged, violations };
  if (flags.json) {
    io.out(JSON.stringify(result));
    return { code, result };
  }
  if (!quiet) {
    io.out(`  checked: ${r.checked.join(', ')}`);
    if (r.fallback !== null) io.out(`  note: searched on the object system (slower, the same search): the packed fast path cannot hold this world: ${r.fallback}`);
    io.out(`  ${symmetryLine(r, flags.symmetry === false)}`);
    if (por) io.out(`  ${porLine(r)}`);
    io.out(`  ${countText(r.states)} distinct states, ${countText(r.transitions)} transitions, depth ${r.depth}, ${seconds.toFixed(2)} s (${countText(statesPerSecond)} states/s)`);
  }
  if (r.waitingUnjudged > 0) io.out(`  note: ${countNoun(r.waitingUnjudged, 'quiet state')} waited for a later time this search does not reach (a back-off, a window): liveness not judged there; ${hasClock(options) ? 'a longer --ticks horizon reaches it' : 'give the world a clock (--ticks N, and --jump N for long windows) to judge it'}`);
  if (!quiet) io.out(`  visited set and parent links ${perState(r.indexBytes).toFixed(1)} bytes/state, frontier at most ${perState(r.frontierBytesMax ?? 0).toFixed(1)} bytes/state; the process grew ${residentBytesPerState.toFixed(1)} bytes/state; fingerprint collision bound ${r.collisionBound.toExponential(1)}`);
  // Under --por the eventually properties were not checked: the result says which properties it covers.
  for (const line of outcomeLines(r, ok, flags.continue === true, statesMax, depthMax)) io.out(por ? line.replace('no property violated', 'no always property violated (--por)') : line);
  for (const v of violations) {
    io.out(`RESULT: ${v.property} violated: ${terminalText(v.detail)}`);
    // Reduced by --por, the search finds a real trace, not always the shortest one (docs/explore-reduction.md).
    if (por && r.por !== undefined) io.out(`  trace ${v.trace}: ${terminalText(v.path)} (${countNoun(v.steps, 'step')}; --por: a real trace, not always the shortest)`);
    else io.out(`  shortest trace ${v.trace}: ${terminalText(v.path)} (${countNoun(v.steps, 'step')})`);
    io.out(`  replay: ${terminalText(v.replay)}`);
  }
  return { code, result };
}

/** What --por did, for the JSON: the packed explorer's figures, or `used: false` when the object explorer searched. */
function porOf(r: OutboxSearch, asked: boolean): (PorReport & { used: boolean }) | null {
  if (!asked) return null;
  return r.por === undefined ? { ...newStats(), ...newCensus(), used: false } : { ...r.por, used: true };
}

/** What partial-order reduction did, and that the eventually properties were not checked. */
function porLine(r: OutboxSearch): string {
  if (r.por === undefined) return 'por: not used (the object explorer searched); eventually properties not checked (--por)';
  const p = r.por;
  return `por: ${countText(p.reduced)} of ${countText(p.states)} states expanded through an ample set (${countText(p.skipped)} successors skipped; ${p.proviso} fully expanded by the cycle proviso; ample sets offered: ${countText(p.offered)} (${countText(p.restarts)} of restarts); candidate sets refused: ${countText(p.dependent)} dependent, ${countText(p.visible)} visible); eventually properties not checked (--por)`;
}

/** Whether the states counted are classes of states (symmetry reduction) or every state, and why. */
function symmetryLine(r: OutboxSearch, refused: boolean): string {
  if (r.symmetry) return 'symmetry: on: one state stored per class of states equal up to renaming engine pids (--no-symmetry: every state)';
  if (refused) return 'symmetry: off (--no-symmetry): every state stored';
  return `symmetry: off: ${r.symmetryOff ?? 'not used'}; every state stored`;
}

/** What a person reads of how the search ended, before the violations (if any) are listed. */
function outcomeLines(r: OutboxSearch, ok: boolean, continued: boolean, statesMax: number, depthMax: number | undefined): string[] {
  // The flag (with its value) that stopped a partial search, or the reason given.
  const stopper = r.stoppedBy === 'max-states' ? `--max-states ${statesMax}` : r.stoppedBy === 'max-depth' ? `--max-depth ${depthMax}` : r.stoppedBy === INTERRUPTED ? stopperOfInterrupt(interruption()) : String(r.stoppedBy);
  if (!ok) {
    if (!continued) return [];
    if (r.complete) return ['  --continue: the whole bounded space was searched; every property violated in it is listed below, each with its shortest trace'];
    return [`WARNING: --continue: stopped by ${stopper}: a property not listed below may still be violated beyond the states searched`];
  }
  // A proof leaves out the quiet states it could not judge (the note above says which and why).
  const unjudged = r.waitingUnjudged > 0 ? `; liveness not judged at ${countNoun(r.waitingUnjudged, 'quiet state')} waiting for time` : '';
  if (r.complete) return [`RESULT: no property violated in the whole bounded space (a proof for this world${unjudged})`];
  if (r.stoppedBy === 'max-depth') {
    return [
      `WARNING: stopped by ${stopper}: every trace of up to ${countNoun(depthMax ?? 0, 'step')} was searched, none longer: bound reached, nothing found, not a proof (complete: false, exit ${EXIT_PARTIAL})`,
      `RESULT: no property violated by any trace of up to ${countNoun(depthMax ?? 0, 'step')}`,
    ];
  }
  if (r.stoppedBy === INTERRUPTED) return [`WARNING: stopped by ${stopper}: a partial search, not a proof (complete: false)`, 'RESULT: no property violated in the states searched'];
  return [`WARNING: stopped by ${stopper}: bound reached, nothing found, not a proof (complete: false, exit ${EXIT_PARTIAL})`, 'RESULT: no property violated in the states searched'];
}
