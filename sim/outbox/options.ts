/**
 * The fault knobs of one outbox world, in one documented object (fault
 * knobs in one place, units and qualifiers last). Each seed draws its own mix
 * (swarm testing), so different seeds stress different faults; `check` prints
 * the mix first.
 */
import { childStream, lightHash, lightSeed, lightStream, lightStreamAt } from '../core/chooser.ts';
import type { BrokerMode } from '../../model/types.ts';
import { SWARM_BROKER_MODES } from '../../model/broker.ts';
import { ANSWER_NAMES, HEALTHY_ANSWER, type Answer } from './events/broker.ts';
import type { KnobDraw } from './events/kind.ts';
import { EVENT_KINDS, GROUPS, SETTINGS } from './events/table.ts';
import { coverSeed } from './swarm-coverage.ts';
import { bodyShapeDrawn, bodyShapeWords } from './body-shape.ts';
import { idShapeDrawn, idShapeWords } from './id-shape.ts';

/** Options of one world. */
export interface WorldOptions {
  /** Engine processes alive at once. */
  engines: number;
  /** Outbox ids (task ids). */
  ids: number;
  /** Bodies the producer writes per id, each a new generation replacing the last. */
  bodiesPerId: number;
  /** Attempts before an item parks. */
  attemptsMax: number;
  /**
   * The attempts the liveness bound is sized for when the rule set's own
   * cap is past `attemptsMax` (a hard-coded 25 retries: thresholds.ts,
   * `withAttemptMarks`); absent: `attemptsMax`. The world is the same; only
   * how long its liveness phase may take to be quiet changes.
   */
  healAttempts?: number;
  broker: BrokerMode;
  /** True when engines of the old rule set run beside the new (version skew). */
  skew: boolean;
  /** Engine crashes allowed (between any two durable writes, or during a POST). */
  crashesMax: number;
  /** Record or claim corruptions, schema rewrites and legacy rewrites allowed. */
  corruptionsMax: number;
  /** Operator actions (requeue, restore) allowed. */
  operatorActionsMax: number;
  /**
   * The world settings event kinds declare for themselves (`Setting` in
   * events/kind.ts), by name; a setting absent here is off (its `off` value).
   */
  settings?: Readonly<Record<string, number>>;
  /**
   * Opt-in property at-most-once (`--property at-most-once`): for a consumer
   * that is not idempotent; it sees duplicates under `--broker log`.
   */
  atMostOnce?: boolean;
  /**
   * Every id's producer writes the same bodies (A, B for a and for b), as two
   * tasks may carry identical payloads: a rule that tells ids apart by body
   * (a key hashed from the payload, say) meets it only here. Absent: each
   * id's bodies are its own (A, B for a; C, D for b). A suite world's
   * (sim/small-worlds.ts), `explore --same-bodies`, and one swarm seed in
   * four of those with two ids.
   */
  sameBodies?: boolean;
  /**
   * Ids named as production ids are, long and alike
   * (eu-west-1.tenant-42.order-000017, eu-west-1.tenant-43.order-000017;
   * `idNames`): a rule that cuts an id to a few
   * characters for a key, lowercases, hashes or shards it changes nothing on
   * one letter, and two ids alike then share what it makes of them. Absent:
   * a, b. A suite world's (sim/small-worlds.ts), `explore --long-ids`, and
   * one swarm seed in four of those with two ids.
   */
  longIds?: boolean;
  /**
   * The world's two ids as a pair that differs only by case (`case`), by
   * Unicode normalisation (`accent`: NFD against NFC) or by a trailing space
   * (`space`) (id-shape.ts): the world compares them exactly, a rule that
   * folds them makes them one. Absent: a, b. Never with `longIds`.
   * `explore --id-shape`, `diff --id-shape`, and one swarm seed in eight of
   * those with two ids, from a stream of its own (`ids:shape`).
   */
  idShape?: string;
  /**
   * A tick the clock may jump to at once while faults last (a `long-wait`
   * to it, events/clock.ts): one of the instants at which the checked rule
   * set's decisions answer otherwise (thresholds.ts, `probeClock`), a
   * window of the day or a cut-over date that random waits land in only by
   * chance. Drawn by `check` for one seed in two of those with a clock when
   * the probe saw any, the first of them in the small worlds with a clock
   * (sim/small-worlds.ts, `suiteOptions`); absent (undefined) otherwise.
   */
  waitTo?: number;
  /**
   * The shape of every body the producer writes after its letter (body-shape.ts): `astral` (characters
   * outside the BMP), `combining` (not NFC), `control` (control and markup characters, a trailing space)
   * or `large:N` (N characters). Absent: one letter. `explore --body-shape`, `diff --body-shape`, and one
   * swarm seed in eight, from a stream of its own (`bodies:shape`).
   */
  bodyShape?: string;
  /**
   * Each kind's swarm weight by its name in the event table (0: switched off
   * for this world; a name absent, as in a trace from before the kind: 0).
   */
  weights: Readonly<Record<string, number>>;
  /** Relative weight of the fault group against engine steps. */
  faultGroupWeight: number;
  /**
   * The broker's steady answer once faults stop (liveness phase): `accept`
   * for a healthy broker, or a failure that persists (an outage, a broker
   * that garbles every reply). Either way the system must become quiet.
   */
  healAnswer: Answer;
  /**
   * Steps of the safety phase before faults stop. Drawn per seed, so that
   * some runs stop their faults with work still in flight and the liveness
   * phase has something to finish.
   */
  faultStepsMax: number;
}

/** Options fixed by the user; absent fields are drawn by the swarm. */
export type FixedOptions = Partial<Pick<WorldOptions, 'engines' | 'ids' | 'bodiesPerId' | 'attemptsMax' | 'broker' | 'skew' | 'settings' | 'atMostOnce' | 'operatorActionsMax' | 'bodyShape' | 'idShape'>> & {
  /** The upgrade by default (docs/rules.md, 'Version skew'): `skew` drawn per seed ({@link skewDrawnFor}) where it is not fixed. */
  skewDrawn?: true;
};

function between(pick: (n: number) => number, lo: number, hi: number): number {
  return lo + pick(hi - lo + 1);
}

/** A kind's swarm knob: the named stream its weight is drawn from, and how. */
export interface SwarmKnob {
  name: string;
  stream: string;
  draw: KnobDraw;
}

/** The knobs the swarm draws into `weights`: every table kind's but those that follow a setting. */
export function swarmKnobs(): SwarmKnob[] {
  return [...tableKnobs()];
}

/** The table's knobs, listed once (the table does not change; every seed's weights are drawn over them). */
let knobsOnce: readonly SwarmKnob[] | null = null;
function tableKnobs(): readonly SwarmKnob[] {
  knobsOnce ??= EVENT_KINDS.flatMap((k) => (k.knob === null || k.knob.draw === 'setting' ? [] : [{ name: k.name, stream: k.knob.stream, draw: k.knob.draw }]));
  return knobsOnce;
}

/**
 * Each knob's value for a seed, drawn from the knob's own stream only: a
 * knob's draw depends on the seed and its stream's name, never on which
 * other knobs exist or where they are listed, so adding a kind moves no
 * other kind's weight.
 */
export function drawKnobs(seed: number, knobs: readonly SwarmKnob[]): number[] {
  const prefix = lightSeed(seed);
  const out: number[] = [];
  for (const k of knobs) out.push(drawKnob(prefix, k));
  return out;
}

/** One knob's value from its stream (`prefix`: the seed's {@link lightSeed}). */
function drawKnob(prefix: number, k: SwarmKnob): number {
  const stream = lightStreamAt(lightHash(prefix, k.stream));
  if (k.draw === 'base') return 6 + Math.floor(stream.next() * 6);
  return Math.floor(stream.next() * 4) === 0 ? 0 : 1 + Math.floor(stream.next() * 4);
}

/** A seed's weights by kind name ({@link drawKnobs} over the table's knobs, drawn straight into the record). */
export function drawWeights(seed: number): Record<string, number> {
  const prefix = lightSeed(seed);
  const out: Record<string, number> = {};
  for (const k of tableKnobs()) out[k.name] = drawKnob(prefix, k);
  return out;
}

/** A seed's world settings (each drawn from its own stream), with those `fixed` by flags in their place. */
export function drawSettings(seed: number, fixed: Readonly<Record<string, number>> = {}): Record<string, number> {
  const prefix = lightSeed(seed);
  const out: Record<string, number> = {};
  for (const s of SETTINGS) {
    const stream = lightStreamAt(lightHash(prefix, s.stream));
    out[s.name] = fixed[s.name] ?? s.draw(() => stream.next());
  }
  return out;
}

/** A setting's value in a world (its `off` value when absent). */
export function settingValue(options: WorldOptions, name: string): number {
  const s = SETTINGS.find((x) => x.name === name);
  return options.settings?.[name] ?? s?.off ?? 0;
}

/**
 * The answer a seed's broker settles on once faults stop: half the seeds a
 * healthy broker, the other half one of the failures that can persist. The
 * failure is the one whose own stream (`heal:<answer>`) draws lowest, so an
 * answer added to the menu changes only the seeds where it draws lowest.
 */
/** The answers a broker may settle on once faults stop: the healthy one and each failure that can persist (`steady` in the table). */
export const STEADY_ANSWERS: readonly Answer[] = [HEALTHY_ANSWER, ...EVENT_KINDS.filter((k) => k.steady === 'failure').map((k) => k.name as Answer)];

/** The failures a broker may settle on, each with its stream's name, listed once (the table does not change). */
let healFailuresOnce: readonly { answer: Answer; stream: string }[] | null = null;
function healFailures(): readonly { answer: Answer; stream: string }[] {
  healFailuresOnce ??= EVENT_KINDS.filter((k) => k.steady === 'failure').map((k) => ({ answer: k.name as Answer, stream: `heal:${k.name}` }));
  return healFailuresOnce;
}

function drawHealAnswer(seed: number): Answer {
  const prefix = lightSeed(seed);
  if (lightStreamAt(lightHash(prefix, 'heal')).next() < 0.5) return HEALTHY_ANSWER;
  let best: Answer = HEALTHY_ANSWER;
  let lowest = Infinity;
  for (const f of healFailures()) {
    const r = lightStreamAt(lightHash(prefix, f.stream)).next();
    if (r < lowest) {
      best = f.answer;
      lowest = r;
    }
  }
  return best;
}

/**
 * The operator's budget: 0-3 from the `swarm` stream as before, and in one
 * seed in eight 8-12 from a stream of its own (`operator:many`), so that a
 * flaw needing many requeues (a record's history that grows by one entry per
 * park) is reachable; the other draws do not move.
 */
function operatorBudget(seed: number, drawn: number): number {
  const s = lightStream(seed, 'operator:many');
  return s.next() < 1 / 8 ? 8 + Math.floor(s.next() * 5) : drawn;
}

/**
 * How often and how large a production-sized attempts limit is drawn
 * ({@link attemptsLimit}): in one seed in `every`, `min` to `max`.
 */
export const PRODUCTION_ATTEMPTS = { every: 8, min: 6, max: 32 } as const;

/**
 * The attempts limit: 1-5 from the `swarm` stream as before, and in one seed
 * in eight 6-32 from a stream of its own (`attempts:many`), as production's
 * outboxes run limits of 10-25 and more: a record that keeps something per
 * failed attempt up to the limit (a time, an error) is past its bound only
 * with such a limit. The other draws do not move. One in eight, measured on
 * the main job's 5,000 seeds: fail-closed's steps 233,522 to 245,047; a
 * review's record of attempt times found in 50 runs, first at seed 8 (one in
 * sixteen: 28 runs, first at 299; one in four: 108 runs, 255,303 steps).
 */
function attemptsLimit(seed: number, drawn: number): number {
  const s = lightStream(seed, 'attempts:many');
  return s.next() < 1 / PRODUCTION_ATTEMPTS.every ? PRODUCTION_ATTEMPTS.min + Math.floor(s.next() * (PRODUCTION_ATTEMPTS.max - PRODUCTION_ATTEMPTS.min + 1)) : drawn;
}

/** The largest attempts limit the liveness bound was sized for ({@link healStepsOf}). */
export const HEAL_BOUND_ATTEMPTS = 10;

/**
 * The liveness phase's bound for a world (docs/properties.md, 'quiet-after-healing (liveness bound)'):
 * `bound` (400 steps) for an attempts limit up to {@link HEAL_BOUND_ATTEMPTS},
 * and as many steps per attempt past it (40 each). A sound rule set under an
 * outage that lasts retries each record up to its limit before it parks: with
 * a limit of 32, two records and three engines, fail-closed was quiet only
 * after 562 steps, and with 100 after 2,390 (measured over 1,000 seeds), never
 * retrying for ever. Explore's worlds and the small worlds (limits up to 10)
 * keep 400. Computed from the world's options, so a check, the trace it
 * writes and its replay agree.
 */
export function healStepsOf(bound: number, options: Pick<WorldOptions, 'attemptsMax' | 'healAttempts'>): number {
  const attempts = Math.max(options.attemptsMax, options.healAttempts ?? 0);
  return attempts <= HEAL_BOUND_ATTEMPTS ? bound : Math.ceil((bound * attempts) / HEAL_BOUND_ATTEMPTS);
}

/**
 * Whether a seed's ids all get the same bodies (`WorldOptions.sameBodies`):
 * one seed in four of those with two ids, from a stream of its own
 * (`bodies:same`), so that the other draws do not move. Written as true or
 * undefined (never absent), so that every seed's options keep one shape;
 * undefined is left out of JSON and of the world's key.
 */
function sameBodiesDrawn(seed: number, ids: number): true | undefined {
  return ids >= 2 && lightStream(seed, 'bodies:same').next() < 1 / 4 ? true : undefined;
}

/**
 * Whether a seed runs the old rule set's engines beside the new under the
 * upgrade by default (`FixedOptions.skewDrawn`): one seed in four, from a
 * stream of its own (`skew:upgrade`), so that the other draws do not move.
 * The small worlds run the upgrade too, but bounded: a flaw that needs
 * both versions and more than they hold (a date passing, many attempts)
 * was reached by no seed, which ran the new rule set alone.
 */
export function skewDrawnFor(seed: number): boolean {
  return lightStream(seed, 'skew:upgrade').next() < 1 / 4;
}

/** Whether a seed's ids are named alike (`WorldOptions.longIds`): one seed in four of those with two ids, from a stream of its own (`ids:long`), true or undefined as {@link sameBodiesDrawn}. */
function longIdsDrawn(seed: number, ids: number): true | undefined {
  return ids >= 2 && lightStream(seed, 'ids:long').next() < 1 / 4 ? true : undefined;
}

/**
 * Draws a world's options from the seed's `swarm` stream: sizes (engines 1-3,
 * ids 1-2, bodies per id 1-3, attempts limit 1-5, or 6-32 in one seed in
 * eight: {@link attemptsLimit}), broker mode, budgets and
 * the length of the safety phase; each kind's weight from its own stream
 * ({@link drawKnobs}), so each seed switches some kinds off entirely. The
 * first seeds then take their features from a covering array, so that every
 * pair of feature values occurs early (swarm-coverage.ts).
 */
export function swarmOptions(seed: number, fixed: FixedOptions = {}): WorldOptions {
  // The `swarm` stream straight, not through a chooser: every draw here is
  // `floor(draw * n)`, the chooser's `int` (which for n = 1 also moves the stream on).
  const swarm = childStream(seed, 'swarm');
  const pick = (n: number): number => Math.floor(swarm.next() * n);
  // Draw every field in a fixed order whether or not it is fixed, so that
  // fixing one option does not shift the others.
  const engines = between(pick, 1, 3);
  const ids = between(pick, 1, 2);
  const bodiesPerId = between(pick, 1, 3);
  const attemptsMax = between(pick, 1, 5);
  const broker = SWARM_BROKER_MODES[pick(SWARM_BROKER_MODES.length)];
  const crashesMax = pick(4);
  const corruptionsMax = pick(3);
  const operatorActionsMax = pick(4);
  const faultGroupWeight = 1 + pick(4);
  const faultStepsMax = between(pick, 20, 120);
  return coverSeed(seed, fixed, {
    engines: fixed.engines ?? engines,
    ids: fixed.ids ?? ids,
    bodiesPerId: fixed.bodiesPerId ?? bodiesPerId,
    attemptsMax: fixed.attemptsMax ?? attemptsLimit(seed, attemptsMax),
    broker: fixed.broker ?? broker,
    skew: fixed.skew ?? (fixed.skewDrawn === true && skewDrawnFor(seed)),
    settings: drawSettings(seed, fixed.settings),
    ...(fixed.atMostOnce === true ? { atMostOnce: true } : {}),
    sameBodies: sameBodiesDrawn(seed, fixed.ids ?? ids),
    longIds: longIdsDrawn(seed, fixed.ids ?? ids),
    idShape: idShapeDrawn(seed, fixed.ids ?? ids, longIdsDrawn(seed, fixed.ids ?? ids) === true, fixed.idShape),
    bodyShape: bodyShapeDrawn(seed, fixed.bodyShape),
    // Drawn by check from the rule set's instants (thresholds.ts); a key in every seed's options keeps them one shape.
    waitTo: undefined,
    crashesMax,
    corruptionsMax,
    operatorActionsMax: fixed.operatorActionsMax ?? operatorBudget(seed, operatorActionsMax),
    weights: drawWeights(seed),
    faultGroupWeight,
    healAnswer: drawHealAnswer(seed),
    faultStepsMax,
  });
}

/**
 * One line describing the options, printed before a run: the sizes, each
 * setting's words, the budgets, and the weights by subsystem, each kind by
 * its name (in table order).
 */
export function describeOptions(o: WorldOptions): string {
  const settings = SETTINGS.map((s) => ` ${s.words(settingValue(o, s.name))}`).join('');
  const weights = GROUPS.map((g) => {
    const kinds = EVENT_KINDS.filter((k) => k.group === g.name && k.knob !== null && k.knob.draw !== 'setting');
    return kinds.length === 0 ? '' : ` ${g.name}[${kinds.map((k) => `${k.name}:${o.weights[k.name] ?? 0}`).join(' ')}]`;
  }).join('');
  return `engines=${o.engines} ids=${o.ids}${o.longIds === true ? ' (named alike)' : ''}${o.idShape === undefined ? '' : ` (${o.idShape}: ${idShapeWords(o.idShape)})`} bodies/id=${o.bodiesPerId}${o.sameBodies === true ? ' (the same for every id)' : ''}${o.bodyShape === undefined ? '' : ` (${o.bodyShape}: ${bodyShapeWords(o.bodyShape)})`} attemptsMax=${o.attemptsMax}${o.healAttempts === undefined ? '' : ` (liveness bound sized for ${o.healAttempts})`} broker=${o.broker}${settings}${o.waitTo === undefined ? '' : ` waitTo=${o.waitTo}`} skew=${o.skew} crashesMax=${o.crashesMax} corruptionsMax=${o.corruptionsMax} operatorMax=${o.operatorActionsMax} faultWeight=${o.faultGroupWeight}${weights} healAnswer=${o.healAnswer} faultSteps=${o.faultStepsMax}`;
}

/** The answers a broker may give, in table order (for code that ranges over them: liveness modes, shrinking). */
export { ANSWER_NAMES, type Answer };
