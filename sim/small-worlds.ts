/**
 * The small worlds `check` explores completely before its swarm (issue 21):
 * a fixed suite of bounded worlds, each searched by `explore` with the
 * eventually properties, so that a flaw needing a rare combination (a crash
 * in the POST after the broker stored the body, version skew with the older
 * engine admitting, a dedupe mode, several operator actions) is found by
 * exhaustion in seconds instead of by luck at seed 20,000. Each world is
 * small enough to finish; a world that hits the state bound says so
 * (`complete: false`) and is not a proof.
 */
import type { BrokerMode } from '../model/types.ts';
import type { RulesPair } from './outbox/record-trace.ts';
import { BOUNDS_DEFAULT, fixedOptions, planThresholds, steppersFor, type CheckPlan } from './check.ts';
import type { RuleSet } from '../model/rules.ts';
import { PRODUCTION_ATTEMPTS, type WorldOptions } from './outbox/options.ts';
import { EXPLORE_DEFAULTS, exploreOptions, type ExploreSizes } from './outbox/explore-options.ts';
import { counterexampleOf, exploreOutbox } from './outbox/explore-outbox.ts';
import { writeCounterexample } from './outbox/record-trace.ts';
import { hasClock, LONG_WAIT_TICKS } from './outbox/events/clock.ts';
import { SETTINGS } from './outbox/events/table.ts';
import { BODY_PROBE } from './outbox/body-probe.ts';
import { isCollideShape, orderedShapes } from './outbox/id-shape.ts';
import { OLD_WRITES_QUEUED } from './outbox/events/process.ts';
import { SESSION_CLAIMS } from './outbox/events/faults.ts';
import type { RuleThresholds } from './outbox/thresholds.ts';
import type { Steppers } from './outbox/outbox-system.ts';
import { watchingIn } from './watch.ts';

/** One world of the suite: a name a person reads, and its sizes over explore's defaults. */
export interface SmallWorld {
  name: string;
  sizes: ExploreSizes;
  /** A bound of its own below the suite's (a world the probes added, whose states may grow with a rule set's history). */
  statesMax?: number;
}

/** Stored states at which a suite world stops, partial: far above any world of the suite (the largest, with --old-rules, is a few hundred thousand). */
export const SMALL_WORLD_STATES_MAX = 1_000_000;

/**
 * The suite's own bound: once the worlds searched, in suite order, hold this
 * many states, the worlds after them are not searched. Each world stops at
 * a million (above); fail-closed's whole suite is about 300,000 (600,000
 * with an older version beside it). A rule set whose record grows
 * without end (an attempt counter never capped) makes every world a million
 * states: 16 of them took 184 s on one worker and proved nothing, where the
 * swarm answers in a fraction of a second. Deterministic: whether a world
 * is searched depends only on the worlds before it.
 */
export const SUITE_STATES_MAX = 3_000_000;

/** Whether the worlds searched so far (a prefix of the suite) spent the suite's bound. */
export const suiteSpent = (worlds: readonly SmallWorldResult[], max = SUITE_STATES_MAX): boolean => worlds.reduce((n, w) => n + w.states, 0) >= max;

type Over = Partial<Omit<ExploreSizes, 'skew'>>;

/**
 * The suite on one version (each over explore's default world: 1 id, 2
 * bodies, 2 engines, attempts 2, 1 crash, broker id-ok): every broker mode;
 * more attempts and crashes (a crash on a retry); a broker that forgets (a
 * dedupe window); two ids; several operator actions on one engine (a
 * history or requeue flaw needs them); a corruption, and a corruption with
 * an operator action; a world for each
 * setting that turns kinds on (leases, retention, late landing) or changes
 * one (restarts under stable identities). In the order that finds a
 * typical flaw soonest: the default world (most of the repository's flawed
 * rule sets, BENCHMARKS.md 'Finding power'), the corruption (the most of
 * the rest), then the cheap worlds that differ most
 * from it (a broker mode, a clock), then the larger ones, the 6-action
 * world last (the costliest, and no flaw found first there).
 */
const ONE_VERSION: readonly [string, Over][] = [
  ['default', {}],
  // No crash beside the corruption: a quarter of the states, and the same flaws found (finding-power table).
  ['1 corruption, no crash', { corruptionsMax: 1, crashesMax: 0 }],
  ['broker id-409', { broker: 'id-409' }],
  ['broker key', { broker: 'key' }],
  ['broker none', { broker: 'none' }],
  ['broker log', { broker: 'log' }],
  ['1 engine, attempts 3, crashes 2, broker key', { engines: 1, attemptsMax: 3, crashesMax: 2, broker: 'key' }],
  ['1 engine, dedupe window 2', { engines: 1, settings: { dedupeWindow: 2 } }],
  // The kinds a world has only when a setting turns them on (docs/faults.md): a clock with leases and
  // stalls (an unfenced holder) and long waits (a rule's window of up to 1,000 ticks passing), a
  // retention sweeper, a POST landing late.
  ['1 body, no crash, clock to tick 2, lease 1, long waits', { bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1, jump: LONG_WAIT_TICKS } }],
  // Claims bound to their holder's session (row locks): a dead engine's claim reads as free, so a rule that takes "no
  // lock" for "nothing in flight" meets the state a crash in the POST leaves, and an operator's action and a broker
  // answering a duplicate 409 judge it (a blind review's resubmit that cleared the in-flight mark; the swarm found it at seed 1,840).
  // Nothing fails (every POST stored and answered ok): no record may park (parked-only-on-failure). With an attempts
  // limit of 1, a cap checked before the send off by one never sends at all (a blind review's, clean before).
  ['nothing fails, attempts 1', { attemptsMax: 1, crashesMax: 0, healthy: true }],
  ['1 engine, 1 body, 1 operator action, broker id-409, session claims', { engines: 1, bodiesPerId: 1, operatorActionsMax: 1, broker: 'id-409', settings: { [SESSION_CLAIMS]: 1 } }],
  ['1 engine, 2 operator actions', { engines: 1, operatorActionsMax: 2 }],
  // A damaged record and an operator's action on it: a requeue rewrites the record a read gave it, defaults filled in for
  // the damaged fields, and so can launder the evidence a flag kept. No other world has both; the swarm met a rule file's
  // flaw of this kind in 2 runs of 5,000, this world at once.
  ['1 engine, 1 body, attempts 1, 1 corruption, 1 operator action', { engines: 1, bodiesPerId: 1, attemptsMax: 1, corruptionsMax: 1, operatorActionsMax: 1 }],
  ['attempts 3, crashes 2', { attemptsMax: 3, crashesMax: 2 }],
  ['2 ids, 1 body each, 1 engine', { ids: 2, bodiesPerId: 1, engines: 1 }],
  // Two tasks with the same payload, at a broker that dedupes by key across ids: a rule that tells ids apart by
  // their bodies (a key hashed from the payload) loses one of them. Their ids are named alike, as production ids
  // (eu-west-1.tenant-42.order-000017, ...tenant-43...): a rule that cuts or hashes the id for its key loses one of them the same way,
  // and on ids a and b cut nothing. Without crashes: a sixth of the states.
  ['2 ids named alike, the same body, 1 engine, no crash, broker key', { ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', sameBodies: true, longIds: true }],
  ['retention: 1 sweep', { settings: { retention: 1 } }],
  ['late landing: 1 POST in transit', { settings: { lateLanding: 1 } }],
  // Restarts under an old identity (an engine that is gone comes back under its pid, and finds its predecessor's
  // claim as its own): searched on the object system, without symmetry, so kept small.
  ['1 body, attempts 1, stable identities', { bodiesPerId: 1, attemptsMax: 1, settings: { stableIds: 1 } }],
  // A poison message (a body that kills the engine about to send it, for ever): a rule set that retries it
  // never becomes quiet. Without crashes of the budget: the poison makes its own.
  ['1 engine, 1 body, attempts 2, no crash, 1 poison message', { engines: 1, bodiesPerId: 1, attemptsMax: 2, crashesMax: 0, settings: { poison: 1 } }],
  ['1 engine, 1 body, attempts 1, no crash, 6 operator actions', { engines: 1, bodiesPerId: 1, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 6 }],
];

/**
 * With `--old-rules`: engines of both rule sets (e1 old, e2 new; with 3
 * engines e3 old too) that upgrade mid-run, with each dedupe answer, with
 * an operator action run by either version's tool, with more attempts
 * and crashes on one engine that upgrades, with an operator's requeue
 * under a broker deduping by key (a requeued cycle's key), and with a
 * corruption (a damaged record one version reads as the other wrote it),
 * with a clock (leases and long waits), and with ids named alike. Each is a few hundred thousand
 * states at most: skew multiplies a world's states.
 */
const SKEWED: readonly [string, Over][] = [
  ['skew', {}],
  ['skew, broker id-409', { broker: 'id-409' }],
  ['skew, broker key', { broker: 'key' }],
  ['skew, no crash, 1 operator action', { crashesMax: 0, operatorActionsMax: 1 }],
  ['skew, 3 engines, no crash', { engines: 3, crashesMax: 0 }],
  ['skew, 1 engine, attempts 3, crashes 2', { engines: 1, attemptsMax: 3, crashesMax: 2 }],
  // Keys after a requeue: only an operator's action makes an epoch above 0, and the versions may key it apart.
  ['skew, 1 engine, 1 body, 1 operator action, broker key', { engines: 1, bodiesPerId: 1, operatorActionsMax: 1, broker: 'key' }],
  // A damaged or legacy record met by the other version: a migration that writes back the record as read (its
  // defaults filled in) turns a lost evidence flag into false (a blind review's schema bump, found by no skewed world).
  ['skew, 1 engine, 1 body, 1 corruption', { engines: 1, bodiesPerId: 1, corruptionsMax: 1 }],
  // A clock: a rule that reads the time (a back-off, a window, a lease) judged with both versions; without one, a
  // back-off's quiet states wait for a time the skewed worlds never reach (a blind review's upgrade, left unjudged).
  ['skew, 1 body, no crash, clock to tick 2, lease 1, long waits', { bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1, jump: LONG_WAIT_TICKS } }],
  // Ids named as production ids, under a broker deduping by key, as the one-version world of the same name: a key
  // cut from the id (a region prefix stripped) the versions cut apart shows only on such ids (a blind review's, missed
  // when skew and long ids had to meet in one seed).
  ['skew, 2 ids named alike, the same body, 1 engine, no crash, broker key', { ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', sameBodies: true, longIds: true }],
];

/**
 * What each suite world costs, roughly (warm CPU milliseconds of fail-closed's
 * search, measured: the one-version worlds on the build of this table, each
 * searched again after a whole pass of the suite, the mean of two runs; the
 * skewed ones earlier): only the order in which a check job's threads take
 * worlds (the heaviest first, so that what is left at the end is light) reads it;
 * a world not listed counts as a middling one. Results never depend on it.
 */
const WORLD_COST: Readonly<Record<string, number>> = {
  default: 60,
  '1 corruption, no crash': 210,
  'broker id-409': 55,
  'broker key': 35,
  'broker none': 35,
  'broker log': 40,
  '1 engine, attempts 3, crashes 2, broker key': 25,
  '1 engine, dedupe window 2': 12,
  '1 body, no crash, clock to tick 2, lease 1, long waits': 30,
  // Not measured as the others: put with the worlds of their size.
  'nothing fails, attempts 1': 5,
  '1 engine, 1 body, 1 operator action, broker id-409, session claims': 15,
  '1 engine, 2 operator actions': 245,
  '1 engine, 1 body, attempts 1, 1 corruption, 1 operator action': 110,
  'attempts 3, crashes 2': 100,
  '2 ids, 1 body each, 1 engine': 90,
  '2 ids, the same body, 1 engine, no crash, broker key': 20,
  'retention: 1 sweep': 45,
  'late landing: 1 POST in transit': 58,
  '1 body, attempts 1, stable identities': 60,
  '1 engine, 1 body, attempts 2, no crash, 1 poison message': 20,
  '1 engine, 1 body, attempts 1, no crash, 6 operator actions': 340,
  skew: 500,
  'skew, broker id-409': 500,
  'skew, broker key': 500,
  'skew, no crash, 1 operator action': 1500,
  'skew, 3 engines, no crash': 600,
  'skew, 1 engine, attempts 3, crashes 2': 150,
  'skew, 1 engine, 1 body, 1 operator action, broker key': 30,
  'skew, 1 engine, 1 body, 1 corruption': 60,
  'skew, 1 body, no crash, clock to tick 2, lease 1, long waits': 70,
};

/**
 * A suite world's cost in {@link WORLD_COST}; a world not listed counts as a middling one. A world of a
 * body shape the rule set reads ({@link withShapes}), of an id shape it folds ({@link withIdShapes}), or
 * with an older version writing QUEUED ({@link withQueued}), counts as the cheapest: it is there because the rule
 * set's decisions answer otherwise on such input, so a worker thread (which takes from the back of
 * {@link threadOrder}) searches it first.
 */
function worldCost(w: SmallWorld): number {
  return steered(w) ? 0 : (WORLD_COST[w.name] ?? 200);
}

/** A world the probes added: of a body shape or an id shape a decision reads, with an older version that writes QUEUED where a decision reads that status, or with an attempts limit past a threshold of attempts. */
function steered(w: SmallWorld): boolean {
  return w.sizes.bodyShape !== undefined || w.sizes.idShape !== undefined || w.sizes.settings?.[OLD_WRITES_QUEUED] === 1 || isAttemptsWorld(w.sizes);
}

/**
 * The order in which a check job hands out the suite's worlds (the main
 * thread from its front, worker threads from its back): the first world
 * first (light, and the one that finds a typical flaw soonest: the suite's
 * answers are given out in suite order, so none comes before it), then the
 * rest heaviest first (ties in suite order).
 */
export function threadOrder(worlds: readonly SmallWorld[]): number[] {
  const rest = worlds.map((_, i) => i).slice(1).sort((a, b) => worldCost(worlds[b]) - worldCost(worlds[a]) || a - b);
  return worlds.length === 0 ? [] : [0, ...rest];
}

/** What the user fixed that every suite world takes: `--broker`, a world setting (`--dedupe-window`), `--property at-most-once`. */
export interface SuiteFixed {
  broker: BrokerMode | null;
  /** World settings fixed by flags (`--dedupe-window`), by name. */
  settings?: Readonly<Record<string, number>>;
  atMostOnce?: boolean;
}

/**
 * The suite for a check: the one-version worlds, and with old rules the
 * skewed ones too (first, or with `skewedLast` after the others). A fixed
 * broker mode or world setting replaces each world's own; worlds that then
 * coincide are searched once (the first name kept).
 */
export function smallWorlds(skew: boolean, fixed: SuiteFixed = { broker: null }, skewedLast = false, bodyShapes: readonly string[] = [], idShapes: readonly string[] = [], queued = false, attemptsLimit: number | null = null): SmallWorld[] {
  const build = (skewed: boolean, [name, over]: [string, Over]): SmallWorld => {
    // A setting fixed by a flag replaces the world's own; the others stay.
    const settings = { ...over.settings, ...fixed.settings };
    return {
      name: givenName(name, over, fixed),
      ...(isAttemptsWorld(over) ? { statesMax: ATTEMPTS_WORLD_STATES_MAX } : {}),
      sizes: {
        ...EXPLORE_DEFAULTS,
        ...over,
        ...(fixed.broker !== null ? { broker: fixed.broker } : {}),
        ...(Object.keys(settings).length > 0 ? { settings } : {}),
        ...(fixed.atMostOnce === true ? { atMostOnce: true } : {}),
        skew: skewed,
      },
    };
  };
  // With --old-rules the skewed worlds come first: the rolling upgrade is what such a check is asked about.
  // An upgrade run by default (`skewedLast`) comes after the rule set's own worlds, which answer the question asked,
  // its cheapest worlds first: a rule set whose records are large spends the suite's bound of states before the
  // last worlds (a blind review's capped history left 4 of them unsearched, the cheap one that held its flaw among them).
  const skewed = skew ? withQueued(withIdShapes(withShapes(SKEWED, 'skew, ', bodyShapes), idShapes), queued).map((w) => build(true, w)) : [];
  const own = withAttempts(withIdShapes(withShapes(ONE_VERSION, '', bodyShapes), idShapes), attemptsLimit).map((w) => build(false, w));
  // (Array sort is stable: ties keep their order.) The worlds of a body shape, with the upgrade by default, come
  // right after the rule set's own of that shape: answers are given in suite order, and a rule set that reads
  // bodies is asked about them (a new release's limit: its flaw needs the older version beside it). The worlds of an
  // id shape likewise: a rule set that folds ids is asked about ids it folds; and one that reads QUEUED, beside a release writing it.
  const shaped = steered;
  const all = skewedLast
    ? [own[0], ...own.filter(shaped), ...skewed.filter(shaped), ...own.slice(1).filter((w) => !shaped(w)), ...skewed.filter((w) => !shaped(w)).sort((a, b) => worldCost(a) - worldCost(b))]
    : [...skewed, ...own];
  const seen = new Set<string>();
  return all.filter((w) => {
    const key = JSON.stringify(w.sizes);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A list of worlds with, after its first (the default world, with or
 * without skew), that world again for each body shape a decision of the
 * rule set reads ({@link suiteBodyShapes}): a size limit or a stripped
 * character searched exhaustively, with both versions in the skewed one
 * (a new release's limit that parks a body the old one had sent). On one
 * version, also the world of 2 ids named alike with the same body, at a
 * broker deduping by key, again with each shape: an envelope keyed
 * otherwise for such a body (a claim-check key from the body's digest past
 * 64 KiB) makes the two ids one there.
 */
function withShapes(worlds: readonly [string, Over][], prefix: string, shapes: readonly string[]): [string, Over][] {
  const [first, ...rest] = worlds;
  const twins = (w: [string, Over]): [string, Over][] => (prefix !== '' || !NAMED_ALIKE.test(w[0]) ? [w] : [w, ...shapes.map((shape): [string, Over] => [`${w[0]}, bodies ${shape}`, { ...w[1], bodyShape: shape }])]);
  return [first, ...shapes.map((shape): [string, Over] => [`${prefix}bodies ${shape}`, { ...first[1], bodyShape: shape }]), ...rest.flatMap(twins)];
}

/**
 * A list of worlds with, after its first, a world of one engine and one body
 * whose attempts limit is `limit` ({@link suiteAttempts}): a rule that acts
 * at an attempt past every other world's limit (a bit of a bitmap that is a
 * sign bit at attempt 7) is met there with the record still pending, and
 * then one attempt more, in every interleaving of answers and a crash.
 */
function withAttempts(worlds: readonly [string, Over][], limit: number | null): [string, Over][] {
  if (limit === null || worlds.length === 0) return [...worlds];
  const [first, ...rest] = worlds;
  return [first, [`1 engine, 1 body, attempts ${limit}, crashes 1`, { engines: 1, bodiesPerId: 1, attemptsMax: limit, crashesMax: 1 }], ...rest];
}

/**
 * The bound of states of the world {@link withAttempts} adds: fail-closed's
 * is a few thousand states at any limit up to 32, but a record that keeps
 * a history of its attempts (a bitmap of outcomes) doubles them with each
 * attempt, and a million states of it took 18 s and proved nothing: the
 * seeds go past such a threshold too (thresholds.ts, `withAttemptMarks`).
 */
export const ATTEMPTS_WORLD_STATES_MAX = 100_000;

/**
 * A list of skewed worlds with, after its first, that world again with an
 * older version that writes QUEUED in flight (queued-release.ts), when a
 * decision of the rule set reads a QUEUED record otherwise than a READY one
 * ({@link suiteQueued}): a new release that takes such a record for an
 * abandoned send meets one only beside such a release.
 */
function withQueued(worlds: readonly [string, Over][], queued: boolean): [string, Over][] {
  if (!queued || worlds.length === 0) return [...worlds];
  const [first, ...rest] = worlds;
  return [first, [`${first[0]}, old version writes QUEUED`, { ...first[1], settings: { ...first[1].settings, [OLD_WRITES_QUEUED]: 1 } }], ...rest];
}

/** The world of ids named alike the id shapes' twins follow ({@link withIdShapes}), without and with skew. */
const NAMED_ALIKE = /^(skew, )?2 ids named alike, /;

/**
 * A list of worlds with, after its world of 2 ids named alike (the same
 * body, broker key), that world again for each id shape a decision of the
 * rule set folds ({@link suiteIdShapes}), its ids of that shape instead:
 * two tasks whose ids a folded key makes one, at a broker deduping by key,
 * with both versions in the skewed one.
 */
function withIdShapes(worlds: readonly [string, Over][], shapes: readonly string[]): [string, Over][] {
  if (shapes.length === 0) return [...worlds];
  return worlds.flatMap((w): [string, Over][] => {
    const m = NAMED_ALIKE.exec(w[0]);
    if (m === null) return [w];
    const { longIds: _long, ...rest } = w[1];
    // Two ids whose keys meet only once one of them is requeued (a key without a separator between id and
    // epoch) need an operator's action: a pair the probe found (collide:N:M) gets one.
    const twin = (shape: string): [string, Over] =>
      !isCollideShape(shape) ? [`${m[1] ?? ''}2 ids ${shape}, ${w[0].slice(m[0].length)}`, { ...rest, idShape: shape }] : [`${m[1] ?? ''}2 ids ${shape}, ${w[0].slice(m[0].length)}, 1 operator action`, { ...rest, idShape: shape, operatorActionsMax: 1 }];
    return [w, ...shapes.map(twin)];
  });
}

/**
 * A suite world's name, with what the command's flags changed of the very
 * settings the name states: `--ticks 0` turns the clock world's clock off,
 * and a report naming it "clock to tick 2" (371 states, clean, where the
 * world as named is violated) misled a reader into trusting a world that
 * was not searched.
 */
function givenName(name: string, over: Over, fixed: SuiteFixed): string {
  const given: string[] = [];
  if (fixed.broker !== null && over.broker !== undefined && over.broker !== fixed.broker) given.push(`broker ${fixed.broker}`);
  for (const s of SETTINGS) {
    const own = over.settings?.[s.name];
    const flag = fixed.settings?.[s.name];
    if (own !== undefined && flag !== undefined && flag !== own) given.push(s.banner(flag));
  }
  return given.length === 0 ? name : `${name}, but ${given.join(', ')} (as the command line gave)`;
}

/** A violation a suite world holds, its shortest trace written. */
export interface SmallWorldViolation {
  property: string;
  detail: string;
  trace: string;
  path: string;
  steps: number;
  replay: string;
}

/** The search of one suite world. */
export interface SmallWorldResult {
  name: string;
  sizes: ExploreSizes;
  states: number;
  /** True when every reachable state was searched (a proof for this world when no violation). */
  complete: boolean;
  /** Why the search stopped short: `violation` (at the first one found), `max-states`, an interrupt; null when complete. */
  stoppedBy: string | null;
  seconds: number;
  /** States were stored one per class equal up to renaming pids (false: `--no-symmetry`, or a rule set that reads pids). */
  symmetry: boolean;
  /** Why the world was searched without symmetry reduction though it was asked for (a rule set that reads pids, stable identities); absent otherwise. */
  symmetryOff?: string;
  violations: SmallWorldViolation[];
  /**
   * Quiet states whose liveness the search left unjudged: they wait for a
   * time this world does not reach (no clock, or past its horizon;
   * docs/rules.md, 'Time'). Absent when none.
   */
  waitingUnjudged?: number;
}

/** How the suite is run: where traces go, how a replay is spelt, and the caller's clock and stop and progress hooks. */
export interface SuiteRun {
  outDir: string;
  replayCommand: (path: string) => string;
  /** Seconds since some start (the CLI's clock); the search itself reads no clock. */
  now: () => number;
  /** A reason to stop the current search (an interrupt), or null. */
  stopReason?: () => string | null;
  /**
   * Called once the search has ended, before any trace is written: false
   * when a search of the same world on another thread ended first
   * (workers/thread-pieces.ts). Then this search writes no trace (the other
   * writes them; two writers of one file, one of them a thread ended while
   * it writes, left its temporary file behind) and its result is dropped.
   */
  claim?: () => boolean;
  /** States searched so far in the current world. */
  onProgress?: (world: number, states: number) => void;
  statesMax?: number;
  /** The suite's bound of states (`exploreSuite`; `SUITE_STATES_MAX` when absent, smaller in tests). */
  suiteStatesMax?: number;
  /**
   * Store one state per class of states equal up to renaming pids (on
   * unless false, `--no-symmetry`): the same verdicts (symmetry.test.ts),
   * a third of the states in a two-engine world.
   */
  symmetry?: boolean;
}

/**
 * Searches one world to its end (or its first violation: the shortest
 * trace of the first property found, written so that it replays).
 */
export function exploreSmallWorld(pair: RulesPair, steppers: Steppers, world: SmallWorld, index: number, run: SuiteRun): SmallWorldResult {
  // A decision that hangs names the world (watch-lines.ts), with the search's depth in it.
  return watchingIn(`small world "${world.name}"`, () => searchSmallWorld(pair, steppers, world, index, run));
}

/** {@link exploreSmallWorld}, in its watched place. */
function searchSmallWorld(pair: RulesPair, steppers: Steppers, world: SmallWorld, index: number, run: SuiteRun): SmallWorldResult {
  const options = suiteOptions(world, pair.rules);
  // A suite world under skew runs both rule sets; without, only the checked one (its engines are all new).
  const worldRules = { rules: pair.rules, ...(world.sizes.skew && pair.oldRules ? { oldRules: pair.oldRules } : {}) };
  const start = run.now();
  const r = exploreOutbox(options, worldRules, steppers, {
    statesMax: Math.min(run.statesMax ?? SMALL_WORLD_STATES_MAX, world.statesMax ?? SMALL_WORLD_STATES_MAX),
    liveness: true,
    stopAtFirst: true,
    symmetry: run.symmetry !== false,
    progressEvery: 5_000,
    ...(run.onProgress ? { onProgress: (states: number) => run.onProgress?.(index, states) } : {}),
    ...(run.stopReason ? { stopReason: run.stopReason, stopEvery: 1_000 } : {}),
  });
  const seconds = run.now() - start;
  const tracePair: RulesPair = world.sizes.skew ? pair : { ...pair, oldRules: null, oldRulesOrigin: null };
  const first = run.claim?.() ?? true;
  const violations = (first ? r.violations : []).map((v) => {
    const c = counterexampleOf(options, v);
    const w = writeCounterexample(run.outDir, tracePair, steppers, 0, c.options, c.events, v.violation.property, 'check small world', BOUNDS_DEFAULT.healStepsMax, false);
    return { property: v.violation.property, detail: v.violation.detail, trace: w.trace.id, path: w.path, steps: w.stepsAfter, replay: run.replayCommand(w.path) };
  });
  return { name: world.name, sizes: world.sizes, states: r.states, complete: r.complete, stoppedBy: r.stoppedBy, seconds, symmetry: r.symmetry, ...(r.symmetryOff !== null ? { symmetryOff: r.symmetryOff } : {}), violations, ...(r.waitingUnjudged > 0 ? { waitingUnjudged: r.waitingUnjudged } : {}) };
}

/**
 * A suite world's options: a world with a clock may also wait, while faults
 * last, to the first instant at which the rule set's decisions answer
 * otherwise (`WorldOptions.waitTo`; thresholds.ts, probeClock, on the
 * default swarm's seeds 1-32), past its horizon of 2 ticks: a window of
 * the day or a cut-over date is then searched exhaustively, with both
 * versions in the skewed world with a clock. A rule set whose decisions
 * the clock does not change (fail-closed) keeps the world it had.
 */
export function suiteOptions(world: SmallWorld, rules: RuleSet): WorldOptions {
  const options = exploreOptions(world.sizes);
  if (!hasClock(options)) return options;
  const instant = suiteProbe(rules).clock.instants[0];
  return instant === undefined ? options : { ...options, waitTo: instant };
}

/** What the suite asks of a rule set's probe (thresholds.ts): the one of the default swarm's seeds 1-32, once per thread and rule set. */
function suiteProbe(rules: RuleSet): RuleThresholds {
  const plan: CheckPlan = { rules, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT };
  return planThresholds(plan, fixedOptions(plan));
}

/** The largest attempts limit of the suite's own worlds: a threshold of attempts below it is met there with the record pending. */
const SUITE_ATTEMPTS = Math.max(EXPLORE_DEFAULTS.attemptsMax, ...ONE_VERSION.map(([, over]) => over.attemptsMax ?? 0), ...SKEWED.map(([, over]) => over.attemptsMax ?? 0));

/** Whether a world's sizes are those of the world {@link withAttempts} adds: the only one whose limit is past the suite's own. */
function isAttemptsWorld(sizes: Pick<Over, 'attemptsMax'>): boolean {
  return (sizes.attemptsMax ?? 0) > SUITE_ATTEMPTS;
}

/**
 * The attempts limit of the world the suite adds for a threshold of the
 * record's attempts that a decision of `rules` showed (thresholds.ts,
 * `withAttemptMarks`): the smallest such threshold T that no suite world's
 * limit lets a pending record pass, plus 2 (the attempt at T with the
 * record still pending, and one after it), when that is at most production's
 * largest drawn limit (options.ts, `PRODUCTION_ATTEMPTS`); else null. A
 * rule set whose record keeps a history of its attempts (a bitmap) grows
 * its states with the limit: the world's bound of states reports it.
 */
export function suiteAttempts(rules: RuleSet): number | null {
  const t = suiteProbe(rules).attemptMarks.find((at) => at + 2 > SUITE_ATTEMPTS && at + 2 <= PRODUCTION_ATTEMPTS.max);
  return t === undefined ? null : t + 2;
}

/**
 * The body shapes at which a decision of `rules` (or of `oldRules`, the
 * older version beside it) answers otherwise than on one letter (body-probe.ts):
 * the suite searches its default worlds again with each ({@link smallWorlds}).
 * None for a rule set that reads no body's size or characters (fail-closed).
 */
export function suiteBodyShapes(rules: RuleSet, oldRules: RuleSet | null): string[] {
  const shapes = [...suiteProbe(rules).bodies, ...(oldRules === null ? [] : suiteProbe(oldRules).bodies)];
  return [...new Set(shapes)].slice(0, BODY_PROBE.marksMax);
}

/**
 * The id shapes whose two ids a decision of `rules` (or of `oldRules`, the
 * older version beside it) folds (id-probe.ts): the suite searches its
 * worlds of 2 ids named alike again with each ({@link smallWorlds}). None
 * for a rule set whose keys keep every character of the id (fail-closed).
 */
export function suiteIdShapes(rules: RuleSet, oldRules: RuleSet | null): string[] {
  const shapes = new Set([...suiteProbe(rules).ids, ...(oldRules === null ? [] : suiteProbe(oldRules).ids)]);
  return orderedShapes(shapes);
}

/**
 * Whether a decision of `rules` answers a QUEUED record otherwise than a
 * READY one (status-probe.ts): the suite then searches its first skewed
 * world again with an older version that writes QUEUED in flight
 * ({@link smallWorlds}; queued-release.ts). Not for fail-closed, which
 * reads the two alike.
 */
export function suiteQueued(rules: RuleSet): boolean {
  return suiteProbe(rules).queued;
}

/**
 * The suite `check` searches for a pair of rule sets: {@link smallWorlds}
 * with the worlds the probes add (body shapes, id shapes, an older version
 * writing QUEUED), the skewed worlds after the rule set's own when
 * `skewedLast` (the upgrade by default).
 */
export function probedWorlds(pair: { rules: RuleSet; oldRules: RuleSet | null }, fixed: SuiteFixed = { broker: null }, skewedLast = false): SmallWorld[] {
  const skew = pair.oldRules !== null;
  return smallWorlds(skew, fixed, skewedLast, suiteBodyShapes(pair.rules, pair.oldRules), suiteIdShapes(pair.rules, pair.oldRules), skew && suiteQueued(pair.rules), suiteAttempts(pair.rules));
}

/** Searches every world of a suite in order; stops early only when `stopReason` asks. */
export function exploreSuite(pair: RulesPair, worlds: readonly SmallWorld[], run: SuiteRun): SmallWorldResult[] {
  const steppers = steppersFor(pair.rules, pair.oldRules);
  const out: SmallWorldResult[] = [];
  for (const [i, w] of worlds.entries()) {
    out.push(exploreSmallWorld(pair, steppers, w, i, run));
    if (run.stopReason?.() != null || suiteSpent(out, run.suiteStatesMax)) break;
  }
  return out;
}
