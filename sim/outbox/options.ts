/**
 * The fault knobs of one outbox world, in one documented object (fault
 * knobs in one place, units and qualifiers last). Each seed draws its own mix
 * (swarm testing), so different seeds stress different faults; `check` prints
 * the mix first.
 */
import { lightStream, seededChooser } from '../core/chooser.ts';
import type { BrokerMode } from '../../model/types.ts';
import { SWARM_BROKER_MODES } from '../../model/broker.ts';

/**
 * Broker answers to a POST, in the order of `answerWeights` (the trace
 * format keeps weights by position). What each answer means is its entry in
 * the event table (events/broker.ts, docs/faults.md); the swarm draws each
 * weight from the answer's own stream (`swarmKnobs`).
 */
export const ANSWERS = ['accept', 'refuse-400', 'refuse-409', 'unavailable-503', 'timeout-unsent', 'lost-reply', 'garbled-200', 'crash-in-post', 'garbled-unsent'] as const;
export type Answer = (typeof ANSWERS)[number];

/** Fault events other than broker answers, in the order of `faultWeights` (entries in events/faults.ts). */
export const FAULTS = ['crash', 'tear-record', 'tear-claim', 'newer-schema', 'legacy-record'] as const;
/**
 * One of `FAULTS`: the event table keys each fault's swarm knob by it
 * (events/faults.ts). Not `FaultKind`, which is how a rule set's decision
 * broke its contract (model/rule-contract.ts).
 */
export type FaultName = (typeof FAULTS)[number];

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
   * Broker steps (answers to POSTs) after which the broker may forget an
   * id's dedupe entry (its id or key), as SQS FIFO's deduplication interval
   * or NATS's duplicate window do; 0 or absent: it never forgets.
   */
  dedupeWindow?: number;
  /**
   * The logical clock (events/clock.ts, docs/rules.md 'Time'): while faults
   * last, time passes (`tick`) up to this horizon, in ticks; once they stop it
   * runs on. 0 or absent: the world has no clock and decisions see `now: 0`.
   */
  ticksMax?: number;
  /**
   * A claim's lease, in ticks from when it was taken: once the clock passes
   * it, the claim reads `expired` to other engines although its holder may
   * live on. 0 or absent (or no clock): claims never expire.
   */
  leaseTicks?: number;
  /** Relative weight of the `stall` fault (an engine pauses past its lease); 0 or absent: off. */
  stallWeight?: number;
  /**
   * Opt-in property at-most-once (`--property at-most-once`): for a consumer
   * that is not idempotent; it sees duplicates under `--broker log`.
   */
  atMostOnce?: boolean;
  /** Relative weight of each broker answer (index as in {@link ANSWERS}). */
  answerWeights: readonly number[];
  /** Relative weight of each fault (index as in {@link FAULTS}). */
  faultWeights: readonly number[];
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
export type FixedOptions = Partial<Pick<WorldOptions, 'engines' | 'ids' | 'bodiesPerId' | 'attemptsMax' | 'broker' | 'skew' | 'dedupeWindow' | 'atMostOnce' | 'ticksMax' | 'leaseTicks'>>;

function between(pick: (n: number) => number, lo: number, hi: number): number {
  return lo + pick(hi - lo + 1);
}

/**
 * How a kind's swarm knob draws its value: `base` for the healthy answer
 * (6-11, so that most POSTs succeed), `on` for a kind switched off entirely
 * in about one seed in four (else 1-4), `window` for the broker's dedupe
 * window: on (1-6 broker steps) in one seed in four, else off (permanent).
 * A forgetful broker stores again what a permanent one drops, which hides
 * the flaws that need the broker to keep the first body (the phantom
 * deliveries of docs/rules.md), so most seeds keep the shipped broker's
 * permanent memory. `lease` for the world's clock: on in one seed in four,
 * with a lease of 1-3 ticks (else no clock), so that most seeds keep the
 * timeless world every other knob was tuned in.
 */
export type KnobDraw = 'base' | 'on' | 'window' | 'lease';

/** A kind's swarm knob: the named stream its weight is drawn from, and how. */
export interface SwarmKnob {
  name: string;
  stream: string;
  draw: KnobDraw;
}

/** The answers' knobs, in `ANSWERS` order; each kind's entry in the event table names the same stream. */
export const ANSWER_KNOBS: readonly SwarmKnob[] = ANSWERS.map((a) => ({ name: a, stream: `answer:${a}`, draw: a === 'accept' ? 'base' : 'on' }));
/** The faults' knobs, in `FAULTS` order. */
export const FAULT_KNOBS: readonly SwarmKnob[] = FAULTS.map((f) => ({ name: f, stream: `fault:${f}`, draw: 'on' }));

/** The broker's dedupe window (its entry in the event table is events/dedupe-window.ts). */
export const DEDUPE_WINDOW_KNOB: SwarmKnob = { name: 'forget', stream: 'broker:dedupe-window', draw: 'window' };

/** The world's clock and its leases: the lease length drawn (0: no clock); its entry is `tick` (events/clock.ts). */
export const CLOCK_KNOB: SwarmKnob = { name: 'tick', stream: 'clock:lease', draw: 'lease' };
/** The stall fault's weight (events/clock.ts). */
export const STALL_KNOB: SwarmKnob = { name: 'stall', stream: 'fault:stall', draw: 'on' };

/**
 * The clock's horizon in random runs: above what a run's faulty phase
 * reaches (at most 120 steps, about one in eight a tick, plus stalls), so
 * that no window a rule sets ends after it.
 */
export const CHECK_TICKS_MAX = 64;

/**
 * Each knob's value for a seed, drawn from the knob's own stream only: a
 * knob's draw depends on the seed and its stream's name, never on which
 * other knobs exist or where they are listed, so adding a kind moves no
 * other kind's weight.
 */
export function drawKnobs(seed: number, knobs: readonly SwarmKnob[]): number[] {
  const out: number[] = [];
  for (const k of knobs) {
    const stream = lightStream(seed, k.stream);
    if (k.draw === 'base') out.push(6 + Math.floor(stream.next() * 6));
    else if (k.draw === 'window') out.push(stream.next() < 0.75 ? 0 : 1 + Math.floor(stream.next() * 6));
    else if (k.draw === 'lease') out.push(stream.next() < 0.75 ? 0 : 1 + Math.floor(stream.next() * 3));
    else out.push(Math.floor(stream.next() * 4) === 0 ? 0 : 1 + Math.floor(stream.next() * 4));
  }
  return out;
}

/**
 * The answer a seed's broker settles on once faults stop: half the seeds a
 * healthy broker, the other half one of the failures that can persist. The
 * failure is the one whose own stream (`heal:<answer>`) draws lowest, so an
 * answer added to the menu changes only the seeds where it draws lowest.
 */
function drawHealAnswer(seed: number): Answer {
  if (lightStream(seed, 'heal').next() < 0.5) return 'accept';
  let best: Answer = 'accept';
  let lowest = Infinity;
  for (const a of ANSWERS) {
    if (a === 'accept' || a === 'crash-in-post') continue;
    const r = lightStream(seed, `heal:${a}`).next();
    if (r < lowest) [best, lowest] = [a, r];
  }
  return best;
}

/**
 * Draws a world's options from the seed's `swarm` stream: sizes (engines 1-3,
 * ids 1-2, bodies per id 1-3, attempts limit 1-5), broker mode, budgets and
 * the length of the safety phase; each kind's weight from its own stream
 * ({@link drawKnobs}), so each seed switches some kinds off entirely.
 */
export function swarmOptions(seed: number, fixed: FixedOptions = {}): WorldOptions {
  const c = seededChooser(seed);
  const pick = (n: number) => c.int('swarm', n);
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
  return {
    engines: fixed.engines ?? engines,
    ids: fixed.ids ?? ids,
    bodiesPerId: fixed.bodiesPerId ?? bodiesPerId,
    attemptsMax: fixed.attemptsMax ?? attemptsMax,
    broker: fixed.broker ?? broker,
    skew: fixed.skew ?? false,
    dedupeWindow: fixed.dedupeWindow ?? drawKnobs(seed, [DEDUPE_WINDOW_KNOB])[0],
    ...(fixed.atMostOnce === true ? { atMostOnce: true } : {}),
    ...clockOptions(seed, fixed),
    crashesMax,
    corruptionsMax,
    operatorActionsMax,
    answerWeights: drawKnobs(seed, ANSWER_KNOBS),
    faultWeights: drawKnobs(seed, FAULT_KNOBS),
    faultGroupWeight,
    healAnswer: drawHealAnswer(seed),
    faultStepsMax,
  };
}

/**
 * The clock of a seed's world, drawn from its own streams (absent fields: no
 * clock): a lease of 1-3 ticks in one seed in four, with the check horizon
 * and the stall fault's weight. Fixed `ticksMax`/`leaseTicks` win.
 */
function clockOptions(seed: number, fixed: FixedOptions): Pick<WorldOptions, 'ticksMax' | 'leaseTicks' | 'stallWeight'> {
  const [lease, stall] = drawKnobs(seed, [CLOCK_KNOB, STALL_KNOB]);
  const leaseTicks = fixed.leaseTicks ?? lease;
  const ticksMax = fixed.ticksMax ?? (leaseTicks > 0 ? CHECK_TICKS_MAX : 0);
  if (ticksMax <= 0) return {};
  return { ticksMax, leaseTicks, stallWeight: leaseTicks > 0 ? stall : 0 };
}

/** One line describing the options, printed before a run. */
export function describeOptions(o: WorldOptions): string {
  const answers = ANSWERS.map((a, i) => `${a}:${o.answerWeights[i]}`).join(' ');
  const faults = FAULTS.map((f, i) => `${f}:${o.faultWeights[i]}`).join(' ');
  return `engines=${o.engines} ids=${o.ids} bodies/id=${o.bodiesPerId} attemptsMax=${o.attemptsMax} broker=${o.broker} dedupeWindow=${o.dedupeWindow ?? 0}${(o.ticksMax ?? 0) > 0 ? ` ticksMax=${o.ticksMax} leaseTicks=${o.leaseTicks ?? 0} stall:${o.stallWeight ?? 0}` : ''} skew=${o.skew} crashesMax=${o.crashesMax} corruptionsMax=${o.corruptionsMax} operatorMax=${o.operatorActionsMax} faultWeight=${o.faultGroupWeight} answers[${answers}] faults[${faults}] healAnswer=${o.healAnswer} faultSteps=${o.faultStepsMax}`;
}

/** Whether the broker may give `answer` to a POST: once faults stop only the steady answer, and a crash in the POST only while crashes are left. */
export function answerOffered(options: WorldOptions, answer: Answer, healing: boolean, crashes: number): boolean {
  if (healing && answer !== options.healAnswer) return false;
  return answer !== 'crash-in-post' || crashes < options.crashesMax;
}
