/**
 * Thresholds a rule set's decisions act past, found by probing them (as a
 * fuzzer's comparison feedback does): decisions are pure functions, so a
 * decision asked on a record in a real run is asked again with one
 * top-level number of that record set to each of 0..{@link THRESHOLD_PROBE}.max,
 * and each value at which its answer changes (the field itself aside) is a
 * threshold of that field. A change the world explains is left out: the
 * probe is made twice, the second time with the attempts limit and the
 * clock moved far off, and only changes at the same value in both are kept
 * (a park at the attempts limit, a lease that expires at `now`, move).
 * Deep cycles then prefer a run whose record counts such a field up, and
 * take its cycle until the field is past the threshold (deep-cycles.ts;
 * docs/properties.md, 'Long life'). The same calls are asked again with the
 * clock moved ({@link probeClock}): where an answer changes, seeds with a
 * clock and the small worlds with one wait ({@link withClockMarks}).
 */
import { canonicalJson } from '../core/canonical.ts';
import { sameSelectionKind, type AdmitView, type DecisionView, type RequeueView, type RuleSet, type SelectView, type SweepView } from '../../model/rules.ts';
import { OUTCOMES, type OutboxRecord, type Outcome } from '../../model/types.ts';
import { TIME_ORIGIN } from '../../model/time.ts';
import { CHECK_TICKS_MAX, hasClock, TICKS_DRAWN } from './events/clock.ts';
import { lightStream } from '../core/chooser.ts';
import type { WorldOptions } from './options.ts';
import { turnBetween } from './turn-between.ts';
import { hasLetterBodies, probeBodies } from './body-probe.ts';
import { probeIds } from './id-probe.ts';
import { probeQueued } from './status-probe.ts';

/** The record's count of attempts (a base field of every record: model/types.ts), which the world's attempts limit is compared with. */
export const ATTEMPTS_FIELD = 'attempts';

/**
 * Bounds of the probe: values probed one by one (0..max) and then at `far`
 * points (a change between two of them is placed by halving the gap), calls
 * kept per decision and status, changes of answer a field may show and
 * still count as thresholds, the seeds whose runs give the calls, and how
 * far the clock and the attempts limit are moved.
 */
export const THRESHOLD_PROBE = { max: 64, far: [96, 128, 192, 256, 384, 512], callsPerCase: 2, changesMax: 3, seeds: 32, shift: 1_000_000 } as const;

/** The furthest value the probe asks: a threshold past it is not seen. */
export const THRESHOLD_PROBE_END = THRESHOLD_PROBE.far[THRESHOLD_PROBE.far.length - 1];

/** A decision that answers otherwise once `field` is `at` or more (than below it). */
export interface Threshold {
  decision: string;
  field: string;
  at: number;
}

/** A decision asked on a record in a run, its arguments as given. */
export type ProbeCall = Call;
type Call =
  | { decision: 'preSend'; record: OutboxRecord; view: DecisionView | undefined }
  | { decision: 'complete'; record: OutboxRecord; outcome: Outcome; limits: { attemptsMax: number }; view: DecisionView | undefined }
  | { decision: 'requeue'; record: OutboxRecord; reset: boolean; view: RequeueView | undefined }
  | { decision: 'selectable'; record: OutboxRecord; view: SelectView | undefined }
  | { decision: 'sweepable'; record: OutboxRecord; view: SweepView }
  /** `record`: the record `admit` read (an empty one when it read none), asked with it in the read's place. */
  | { decision: 'admit'; record: OutboxRecord; view: AdmitView };

/** `view` of an admission with `record` in its read's place (when it read one). */
function admitWith(view: AdmitView, record: OutboxRecord): AdmitView {
  return view.read.kind === 'found' ? { ...view, read: { ...view.read, record } } : view;
}

/** The calls a recording rule set kept: at most {@link THRESHOLD_PROBE}.callsPerCase per decision and record status, each of other flags. */
export class ProbeCalls {
  readonly calls: Call[] = [];
  /**
   * The calls the body probe asks (body-probe.ts): one per case and per record of other flags and
   * words (an in-flight mark, a park's reason), whose bodies are letters. A rule that acts on a large
   * body only when its in-flight mark is set was not seen on the first call of its case, mark unset.
   */
  readonly bodyCalls: Call[] = [];
  private readonly per = new Map<string, number>();
  private readonly bodyKeys = new Set<string>();
  private readonly thresholdKeys = new Set<string>();

  note(call: Call): void {
    // The case: the decision, the record's status, and what else picks a branch (the operator's action, a reset).
    const how = call.decision === 'requeue' ? `${call.view?.action ?? ''}/${String(call.reset)}` : call.decision === 'admit' ? call.view.read.kind : '';
    const key = `${call.decision}\u0000${String(call.record.status)}\u0000${how}`;
    const full = `${key}\u0000${flagsOf(call.record)}`;
    this.noteBodies(full, call);
    // One call per case and flags (an in-flight mark set or not), a few per case: a rule that acts past a
    // count only on a record without the mark (a janitor of READY rows not in flight) was not seen on the
    // case's first call, mark set.
    if (this.thresholdKeys.has(full)) return;
    const n = this.per.get(key) ?? 0;
    if (n >= THRESHOLD_PROBE.callsPerCase) return;
    this.per.set(key, n + 1);
    this.thresholdKeys.add(full);
    this.calls.push(call);
  }

  private noteBodies(full: string, call: Call): void {
    if (this.bodyCalls.length >= BODY_CALLS_MAX || !hasLetterBodies(call)) return;
    if (this.bodyKeys.has(full)) return;
    this.bodyKeys.add(full);
    this.bodyCalls.push(call);
  }
}

/** A record's flags and words (every boolean, and every string but its payload and digest), as text: what tells two calls of one case apart. */
function flagsOf(record: OutboxRecord): string {
  const words: string[] = [];
  for (const [k, v] of Object.entries(record)) if (typeof v === 'boolean' || (typeof v === 'string' && k !== 'payload' && k !== 'digest')) words.push(`${k}=${String(v)}`);
  return words.sort().join(',');
}

/** The most calls the body probe asks (body-probe.ts): a few per case. */
const BODY_CALLS_MAX = 160;

/** `rules` with the record decisions it is asked noted in `into` (then answered as `rules` answers; a selection by the record alone stays one). */
export function recordingRules(rules: RuleSet, into: ProbeCalls): RuleSet {
  const { selectable, sweepable } = rules;
  const sweep =
    sweepable === undefined
      ? {}
      : {
          sweepable: (record: OutboxRecord, view: SweepView) => {
            into.note({ decision: 'sweepable', record, view });
            return sweepable.call(rules, record, view);
          },
        };
  const select =
    selectable === undefined
      ? {}
      : {
          selectable: sameSelectionKind(rules, (record: OutboxRecord, view: SelectView) => {
            into.note({ decision: 'selectable', record, view });
            return selectable.call(rules, record, view);
          }),
        };
  return {
    ...rules,
    ...select,
    ...sweep,
    admit: (view) => {
      into.note({ decision: 'admit', record: view.read.kind === 'found' ? view.read.record : ({} as OutboxRecord), view });
      return rules.admit(view);
    },
    preSend: (record, view) => {
      into.note({ decision: 'preSend', record, view });
      return rules.preSend(record, view);
    },
    complete: (record, outcome, limits, view) => {
      into.note({ decision: 'complete', record, outcome, limits, view });
      return rules.complete(record, outcome, limits, view);
    },
    requeue: (record, reset, view) => {
      into.note({ decision: 'requeue', record, reset, view });
      return rules.requeue(record, reset, view);
    },
  };
}

/**
 * `view` with the clock and the attempts limit it holds (preSend's
 * `limits`) moved by `shift` and, when it holds the stored record, that
 * record's `field` set to `x` too.
 */
function viewWith<V extends { now: number; stored?: { raw: Readonly<Record<string, unknown>> }; limits?: { attemptsMax: number } }>(view: V | undefined, field: string, x: number, shift: number): V | undefined {
  if (view === undefined) return undefined;
  const stored = view.stored;
  return {
    ...view,
    now: view.now + shift,
    ...(view.limits !== undefined ? { limits: { ...view.limits, attemptsMax: view.limits.attemptsMax + shift } } : {}),
    ...(stored !== undefined && typeof stored.raw[field] === 'number' ? { stored: { ...stored, raw: { ...stored.raw, [field]: x } } } : {}),
  };
}

/** An answer as text, each number of `field` in it written as its difference from `x` (a record counted up answers alike at every value). */
function answerText(answer: unknown, field: string, x: number): string {
  const rel = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rel);
    if (v === null || typeof v !== 'object') return v;
    const o: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) o[k] = k === field && typeof e === 'number' ? { delta: e - x } : rel(e);
    return o;
  };
  return canonicalJson(rel(answer));
}

/**
 * An answer's text, or (`leaf`) the text of the one value at that path in
 * it (`-` when the answer has none there): a flag that turns at a count is
 * a threshold although a number beside it follows the count (a bitmap of
 * attempts), which the whole answer's text hides.
 */
function leafText(text: string, leaf: string | null): string {
  if (leaf === null || text === 'throws') return text;
  return leavesOf(JSON.parse(text) as unknown).get(leaf) ?? '-';
}

/** Every leaf of a value by its path (`0.status`), as JSON text. */
function leavesOf(v: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (v !== null && typeof v === 'object') {
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) leavesOf(e, path === '' ? k : `${path}.${k}`, out);
  } else {
    out.set(path, JSON.stringify(v) ?? 'undefined');
  }
  return out;
}

/** Asks `call`'s decision of `rules` again with the record's `field` at `x` (the clock and the attempts limit moved by `shift`): its answer as text. */
function askAt(rules: RuleSet, call: Call, outcome: Outcome | null, field: string, x: number, shift: number): string {
  const record = { ...call.record, [field]: x } as OutboxRecord;
  try {
    switch (call.decision) {
      case 'preSend':
        return answerText(rules.preSend(record, viewWith(call.view, field, x, shift)), field, x);
      case 'complete':
        return answerText(rules.complete(record, outcome ?? call.outcome, { ...call.limits, attemptsMax: call.limits.attemptsMax + shift }, viewWith(call.view, field, x, shift)), field, x);
      case 'requeue':
        return answerText(rules.requeue(record, call.reset, viewWith(call.view, field, x, shift)), field, x);
      case 'selectable':
        return answerText(rules.selectable?.call(rules, record, viewWith(call.view, field, x, shift) as SelectView) ?? true, field, x);
      case 'sweepable':
        return answerText(rules.sweepable?.call(rules, record, viewWith(call.view, field, x, shift) as SweepView) ?? false, field, x);
      case 'admit':
        return answerText(rules.admit(admitWith({ ...call.view, now: call.view.now + shift }, record)), field, x);
    }
  } catch {
    // A decision that throws at some values answers so there (the check itself reports the throw where a run meets it).
    return 'throws';
  }
}

/**
 * The values in 1..{@link THRESHOLD_PROBE_END} at which the answer differs
 * from the answer one below: each value up to `max`, then between the far
 * points the value where the answer turns, found by halving the gap (one
 * change per gap is placed; a gap with more shows one of them).
 */
function changes(rules: RuleSet, call: Call, outcome: Outcome | null, field: string, shift: number, leaf: string | null = null, asked?: Map<number, string>): number[] {
  const answerAt = (x: number): string => {
    let text = asked?.get(x);
    if (text === undefined) {
      text = askAt(rules, call, outcome, field, x, shift);
      asked?.set(x, text);
    }
    return text;
  };
  const ask = (x: number): string => leafText(answerAt(x), leaf);
  const out: number[] = [];
  let before = ask(0);
  for (let x = 1; x <= THRESHOLD_PROBE.max; x++) {
    const now = ask(x);
    if (now !== before) out.push(x);
    before = now;
  }
  let from: number = THRESHOLD_PROBE.max;
  for (const to of THRESHOLD_PROBE.far) {
    const now = ask(to);
    // before is the answer at `from`, now at `to`: where in (from, to] it turns.
    if (now !== before) out.push(turnBetween(ask, from, to, before));
    before = now;
    from = to;
  }
  return out;
}

/**
 * Where the clock matters to a rule set ({@link probeClock}): `instants`,
 * ticks at which a decision answers otherwise whatever the record holds (a
 * window of the day, a cut-over date), and `waits`, ticks after a record's
 * latest time at which one does (a retention period, an expiry measured
 * from a stamp the rule wrote). Each smallest first, each once.
 */
export interface ClockMarks {
  instants: number[];
  waits: number[];
}

/** No marks of the clock (a rule set whose decisions the clock does not change, or no probe). */
export const NO_CLOCK_MARKS: ClockMarks = { instants: [], waits: [] };

/** A threshold and where the probe saw it: the calls (and outcome) whose answer changed there. */
interface Seen {
  threshold: Threshold;
  sources: { call: Call; outcome: Outcome | null }[];
}

/**
 * The thresholds of a rule set, found by {@link probeThresholds}, with the
 * calls that showed them: a record of other fields may not meet one (a
 * rule that acts past 8 attempts only on a record that never saw an
 * unknown outcome), which {@link RuleThresholds.live} asks.
 */
export class RuleThresholds {
  /** By field, its thresholds' values, smallest first. */
  readonly byField: ReadonlyMap<string, readonly number[]>;

  constructor(
    private readonly rules: RuleSet,
    private readonly seen: readonly Seen[],
    /** Where the clock changes a decision's answer ({@link probeClock}). */
    readonly clock: ClockMarks = NO_CLOCK_MARKS,
    /** The body shapes a decision answers otherwise on (body-probe.ts, `probeBodies`). */
    readonly bodies: readonly string[] = [],
    /** The id shapes a decision folds (id-probe.ts, `probeIds`). */
    readonly ids: readonly string[] = [],
    /** A decision answers a QUEUED record otherwise than a READY one (status-probe.ts, `probeQueued`). */
    readonly queued = false,
    /** The thresholds of the record's attempts, where no probe ran ({@link marksOnly}); else those of `seen`. */
    attempts?: readonly number[],
  ) {
    this.byField = thresholdsByField(seen.map((s) => s.threshold));
    this.attemptMarks = attempts ?? this.byField.get(ATTEMPTS_FIELD) ?? [];
  }

  /** The values of the record's attempts from which a decision answers otherwise ({@link withAttemptMarks}). */
  readonly attemptMarks: readonly number[];

  get list(): Threshold[] {
    return this.seen.map((s) => s.threshold);
  }

  /**
   * Whether a decision that showed a threshold of `field` at `at` answers
   * otherwise at `at` than one below for `record` too: asked as the probe
   * asked it, with `record`'s fields (its status the call's).
   */
  live(field: string, at: number, record: OutboxRecord): boolean {
    for (const s of this.seen) {
      if (s.threshold.field !== field || s.threshold.at !== at) continue;
      for (const { call, outcome } of s.sources) {
        const asked = { ...call, record: { ...record, status: call.record.status } } as Call;
        if (askAt(this.rules, asked, outcome, field, at - 1, THRESHOLD_PROBE.shift) !== askAt(this.rules, asked, outcome, field, at, THRESHOLD_PROBE.shift)) return true;
      }
    }
    return false;
  }

  /**
   * The smallest threshold of `field` above `value` that is live for
   * `record` ({@link live}), or undefined; `far` false: only one the probe
   * asked value by value (up to {@link THRESHOLD_PROBE}.max), which any
   * seed's run may go deep toward (one further is taken only from a sampled
   * seed's: its rounds cost as much as it is far).
   */
  nextLive(field: string, value: number, record: OutboxRecord, far = true): number | undefined {
    return this.byField.get(field)?.find((at) => at > value && (far || at <= THRESHOLD_PROBE.max) && this.live(field, at, record));
  }
}

/** No thresholds (a rule set the probe found none in). */
export const NO_THRESHOLDS: RuleThresholds = new RuleThresholds({} as RuleSet, []);

/** No thresholds of a record's numbers; the clock's marks, the body shapes and the id shapes (a check's, given to a run of its seeds again). */
export function marksOnly(clock: ClockMarks, bodies: readonly string[], ids: readonly string[] = [], attempts: readonly number[] = []): RuleThresholds {
  return clock.instants.length + clock.waits.length + bodies.length + ids.length + attempts.length === 0 ? NO_THRESHOLDS : new RuleThresholds({} as RuleSet, [], clock, bodies, ids, false, attempts);
}

/**
 * Where an answer that follows `field`'s value as a whole (more than
 * {@link THRESHOLD_PROBE}.changesMax changes) holds a leaf that is no
 * number (a flag, a status, a park reason) and turns: the first such leaf
 * in path order, and its first changes (at most `changesMax`, as the world
 * moved off asks them: a flag that turns back later, a bitmap's sign bit
 * that wraps, still turns first there). Null when none: every leaf that
 * turns is a number counted along.
 */
function flagTurns(rules: RuleSet, call: Call, outcome: Outcome | null, field: string): [string, number[]] | null {
  const at0 = askAt(rules, call, outcome, field, 0, THRESHOLD_PROBE.shift);
  if (at0 === 'throws') return null;
  // Each value's answer asked once, whichever leaves are read of it.
  const asked = new Map<number, string>([[0, at0]]);
  for (const [leaf, value] of leavesOf(JSON.parse(at0) as unknown)) {
    // A number's text starts with a digit or its sign; every other leaf is a flag, a word or null.
    if (/^-?\d/.test(value)) continue;
    const turns = changes(rules, call, outcome, field, THRESHOLD_PROBE.shift, leaf, asked);
    if (turns.length > 0) return [leaf, turns.slice(0, THRESHOLD_PROBE.changesMax)];
  }
  return null;
}

/**
 * The thresholds of `rules` on the calls noted: per call, per top-level
 * number of its record (and for `complete`, per outcome), the values at
 * which the answer changes both as asked and with the world's limits moved
 * off ({@link THRESHOLD_PROBE}.shift), when there are at most
 * {@link THRESHOLD_PROBE}.changesMax of them (more: an answer that follows
 * the value, not a threshold). Sorted by field and value, each once.
 */
export function probeThresholds(rules: RuleSet, calls: readonly Call[], bodyCalls: readonly Call[] = calls): RuleThresholds {
  const found = new Map<string, Seen>();
  for (const call of calls) {
    const outcomes: (Outcome | null)[] = call.decision === 'complete' ? [...OUTCOMES] : [null];
    for (const field of Object.keys(call.record)) {
      if (typeof call.record[field] !== 'number') continue;
      for (const outcome of outcomes) {
        let moved = changes(rules, call, outcome, field, THRESHOLD_PROBE.shift);
        let leaf: string | null = null;
        if (moved.length > THRESHOLD_PROBE.changesMax) {
          // The whole answer follows the value: a flag or a status in it may still turn at one (flagTurns).
          const flag = flagTurns(rules, call, outcome, field);
          if (flag === null) continue;
          [leaf, moved] = flag;
        }
        if (moved.length === 0) continue;
        const asAsked = new Set(changes(rules, call, outcome, field, 0, leaf));
        // A flag's turn past the attempts limit as asked is hidden there by the park at the limit (a bitmap of attempts
        // that drops its flag at attempt 7, asked with a limit of 3): confirmed instead with the world moved off twice as
        // far, where a turn the moved limit or clock made would move too.
        const further = leaf === null ? null : new Set(changes(rules, call, outcome, field, 2 * THRESHOLD_PROBE.shift, leaf));
        for (const at of moved) {
          if (!asAsked.has(at) && further?.has(at) !== true) continue;
          const key = `${call.decision}\u0000${field}\u0000${at}`;
          let s = found.get(key);
          if (s === undefined) found.set(key, (s = { threshold: { decision: call.decision, field, at }, sources: [] }));
          s.sources.push({ call, outcome });
        }
      }
    }
  }
  const order = (a: Threshold, b: Threshold): number => (a.field < b.field ? -1 : a.field > b.field ? 1 : a.at - b.at || (a.decision < b.decision ? -1 : a.decision > b.decision ? 1 : 0));
  return new RuleThresholds(rules, [...found.values()].sort((a, b) => order(a.threshold, b.threshold)), probeClock(rules, clockCalls(calls, bodyCalls)), probeBodies(rules, bodyCalls), probeIds(rules, calls), probeQueued(rules, calls));
}

/**
 * The calls the clock's probe asks: one per case, and each call of the body
 * probe's (one per case and per record of other flags and words) whose
 * record holds a time. A window measured from a stamp a rule writes with a
 * flag (an in-flight mark's time, read as "the sender died" days later)
 * shows only on a record that has both, which the first call of its case
 * (the flag unset) had not: a blind review's such windows went unseen.
 */
function clockCalls(calls: readonly Call[], bodyCalls: readonly Call[]): Call[] {
  const stamped = bodyCalls.filter((c) => !calls.includes(c) && stampsOf(c.record).length > 0);
  return [...calls, ...stamped];
}

/** By field, its thresholds' values, smallest first. */
export function thresholdsByField(thresholds: readonly Threshold[]): ReadonlyMap<string, readonly number[]> {
  const out = new Map<string, number[]>();
  for (const t of thresholds) {
    const at = out.get(t.field) ?? [];
    if (!at.includes(t.at)) at.push(t.at);
    out.set(t.field, at.sort((a, b) => a - b));
  }
  return out;
}

/**
 * Bounds of the clock's probe ({@link probeClock}): the ticks asked, every
 * `fineStep` up to `fineEnd` (a quarter of an hour over the first two days
 * in milliseconds: an hour's window of a day, a cut-over a day after the
 * release, midnight) and every `coarseStep` from there to `end` (the
 * swarm's clock horizon), then doubling from there to `farEnd` (a long
 * wait once faults stop goes that far: a window of months, a retention of
 * a quarter), a change between two of them placed by halving;
 * the changes one call may show and still count (more: an answer that
 * follows the clock, not a window), and the instants (and the waits) kept.
 */
export const CLOCK_PROBE = { fineStep: 900_000, fineEnd: 2 * 86_400_000, coarseStep: 6 * 3_600_000, end: TICKS_DRAWN, farEnd: CHECK_TICKS_MAX, changesMax: 8, instantsMax: 16 } as const;

/** The place of the far stretch in {@link clockGrid}'s list. */
const FAR_STRETCH = 2;

/** How long a turn in the far stretch must last to count: longer than a window of the day the doublings may land in. */
const HALF_DAY = 43_200_000;

/**
 * The ticks {@link CLOCK_PROBE} asks one by one, in three stretches (the
 * fine one, the coarse one from where it ends, and the far one doubling
 * from the horizon), each in order.
 */
function clockGrid(): number[][] {
  const fine: number[] = [];
  for (let t = 0; t <= CLOCK_PROBE.fineEnd; t += CLOCK_PROBE.fineStep) fine.push(t);
  const coarse: number[] = [];
  for (let t = CLOCK_PROBE.fineEnd; t <= CLOCK_PROBE.end; t += CLOCK_PROBE.coarseStep) coarse.push(t);
  const far: number[] = [];
  for (let t = CLOCK_PROBE.end; t < CLOCK_PROBE.farEnd; t *= 2) far.push(t);
  far.push(CLOCK_PROBE.farEnd);
  return [fine, coarse, far];
}

/**
 * An answer as text, each time in it written as its distance from `now`
 * (a record stamped with `now`, or `now` plus a back-off, answers alike at
 * every tick), except a time the record asked about already held under
 * the same name (a stamp written earlier, kept as it was).
 */
function answerAtText(answer: unknown, record: OutboxRecord, now: number): string {
  const rel = (v: unknown, key: string | null): unknown => {
    if (typeof v === 'number') return v >= TIME_ORIGIN / 2 && !(key !== null && record[key] === v) ? { sinceNow: v - now } : v;
    if (Array.isArray(v)) return v.map((e) => rel(e, null));
    if (v === null || typeof v !== 'object') return v;
    const o: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) o[k] = rel(e, k);
    return o;
  };
  return canonicalJson(rel(answer, null));
}

/** Asks `call`'s decision of `rules` again with the clock at `tick` (its view's `now` at {@link TIME_ORIGIN} plus it), of `record`: its answer as text. */
function askWhen(rules: RuleSet, call: Call, outcome: Outcome | null, tick: number, record: OutboxRecord = call.record): string {
  const now = TIME_ORIGIN + tick;
  try {
    switch (call.decision) {
      case 'preSend':
        return answerAtText(rules.preSend(record, call.view && { ...call.view, now }), record, now);
      case 'complete':
        return answerAtText(rules.complete(record, outcome ?? call.outcome, call.limits, call.view && { ...call.view, now }), record, now);
      case 'requeue':
        return answerAtText(rules.requeue(record, call.reset, call.view && { ...call.view, now }), record, now);
      case 'selectable':
        return answerAtText(call.view === undefined ? true : (rules.selectable?.call(rules, record, { ...call.view, now }) ?? true), record, now);
      case 'sweepable':
        return answerAtText(rules.sweepable?.call(rules, record, { ...call.view, now }) ?? false, record, now);
      case 'admit':
        return answerAtText(rules.admit(admitWith({ ...call.view, now }, record)), record, now);
    }
  } catch {
    return 'throws';
  }
}

/** How far a record's times are moved to tell a wait after them from an instant ({@link probeClock}): no whole number of hours or days. */
const STAMP_SHIFT = 1_234_567;

/** The top-level numbers of a record that read as times (at least half the clock's origin). */
function stampsOf(record: OutboxRecord): string[] {
  return Object.keys(record).filter((k) => typeof record[k] === 'number' && (record[k] as number) >= TIME_ORIGIN / 2);
}

/**
 * The ticks of the clock at which a rule set's record decisions answer
 * otherwise than a tick before, found as {@link probeThresholds} finds a
 * record's: each call noted asked again with its view's `now` at every
 * tick of {@link CLOCK_PROBE}'s grid, a change between two placed by
 * halving to the tick. A call with more than
 * {@link CLOCK_PROBE}.changesMax changes in a stretch of the grid follows
 * the clock there and gives none from it. A change that moves with the
 * record's times (asked again with them all moved by {@link STAMP_SHIFT})
 * is a wait after the latest of them; any other an instant. At most
 * {@link CLOCK_PROBE}.instantsMax of each, the smallest. A seed with a
 * clock may then wait to an instant, or take waits of that length
 * ({@link withClockMarks}), which random long waits meet only by chance:
 * an hour's window four hours after the origin was met by none of 20,000
 * seeds.
 */
export function probeClock(rules: RuleSet, calls: readonly Call[]): ClockMarks {
  const grid = clockGrid();
  const instants = new Set<number>();
  const waits = new Set<number>();
  for (const call of calls) {
    if (call.view === undefined) continue;
    const stamps = stampsOf(call.record);
    const moved = { ...call.record } as Record<string, unknown>;
    for (const k of stamps) moved[k] = (call.record[k] as number) + STAMP_SHIFT;
    const latest = stamps.length === 0 ? 0 : Math.max(...stamps.map((k) => call.record[k] as number)) - TIME_ORIGIN;
    const outcomes: (Outcome | null)[] = call.decision === 'complete' ? [...OUTCOMES] : [null];
    for (const outcome of outcomes) {
      const ask = (tick: number, record?: OutboxRecord): string => askWhen(rules, call, outcome, tick, record);
      // Each stretch on its own: a key that carries the day changes twice in the fine one (midnight) and
      // too often in the coarse one, whose changes are then not kept.
      for (const [stretch, ticks] of grid.entries()) {
        // The far stretch keeps a single turn from the answer at tick 0 that lasts (a date, a wait): doublings that
        // land in and out of a window of the day would show it again at chance instants a year on.
        const far = stretch === FAR_STRETCH;
        const most = far ? 1 : CLOCK_PROBE.changesMax;
        const at: number[] = [];
        let before = ask(ticks[0]);
        if (far && before !== ask(0)) continue;
        for (let i = 1; i < ticks.length && at.length <= most; i++) {
          const now = ask(ticks[i]);
          if (now !== before) at.push(turnBetween(ask, ticks[i - 1], ticks[i], before));
          before = now;
        }
        if (at.length > most) continue;
        if (far && at.length === 1 && ask(at[0] + HALF_DAY) !== ask(at[0])) continue;
        for (const t of at) {
          const m = moved as OutboxRecord;
          const after = stamps.length > 0 && ask(t - 1, m) === ask(t, m) && ask(t - 1 + STAMP_SHIFT, m) !== ask(t + STAMP_SHIFT, m);
          if (!after) instants.add(t);
          else if (t > latest) waits.add(t - latest);
        }
      }
    }
  }
  const smallest = (set: Set<number>): number[] => [...set].sort((a, b) => a - b).slice(0, CLOCK_PROBE.instantsMax);
  return { instants: smallest(instants), waits: smallest(waits) };
}

/** The thresholds of the record's attempts among `seen` (a check's, as its counts keep them), smallest first. */
export function attemptMarksOf(seen: readonly { field: string; at: number }[]): number[] {
  return seen.filter((t) => t.field === ATTEMPTS_FIELD).map((t) => t.at).sort((a, b) => a - b);
}

/** The largest attempts limit a seed takes (`check --attempts` takes the same range). */
export const ATTEMPTS_LIMIT_MAX = 100;

/**
 * A seed's options with its attempts limit past a threshold of the
 * record's `attempts` (the field the limit is compared with): a rule that
 * acts at attempt 7 (a bit of a bitmap that is a sign bit there, a counter
 * that wraps) is met with the record still pending, and one more attempt
 * after it, only where the limit is above 8; with the drawn limits (1-5 in
 * most seeds) a record reaches attempt 7 only parked and requeued, when
 * every failure parks it again. In one seed in two of those whose limit
 * is drawn (not fixed by `--attempts`: `fixed`) and does not pass such a
 * threshold T (`marks`, smallest first; the smallest it does not pass), by
 * a draw from a stream of the seed's own (`attempts:toward`), so that no
 * other draw moves, the limit becomes T + 2 (at most
 * {@link ATTEMPTS_LIMIT_MAX}). And whatever the limit (`--attempts` too),
 * the liveness bound is sized for the largest such threshold plus 2
 * (`WorldOptions.healAttempts`, options.ts `healStepsOf`): a rule set that
 * caps retries at 25 whatever the world's limit (Sidekiq's default) took
 * longer than 400 steps to be quiet, and a blind review's sound file was
 * flagged busy (round 25). The options as they are otherwise.
 */
export function withAttemptMarks(options: WorldOptions, seed: number, marks: readonly number[], fixed: boolean): WorldOptions {
  if (marks.length === 0) return options;
  const t = fixed ? undefined : marks.find((at) => at + 2 > options.attemptsMax && at + 2 <= ATTEMPTS_LIMIT_MAX);
  const limited = t === undefined || lightStream(seed, 'attempts:toward').next() >= 1 / 2 ? options : { ...options, attemptsMax: t + 2 };
  // The liveness bound sized for the rule set's own cap, when it is past the world's limit (a hard-coded 25
  // retries, whatever the limit): a sound rule set that retries past the limit is not busy at 400 steps.
  const cap = Math.max(...marks.filter((at) => at + 2 <= ATTEMPTS_LIMIT_MAX)) + 2;
  return cap > limited.attemptsMax ? { ...limited, healAttempts: cap } : limited;
}

/**
 * A seed's options with the clock steered to where the rule set's answers
 * change ({@link ClockMarks}): in one seed in two of those with a clock, one
 * mark drawn from a stream of the seed's own (`clock:wait-to`), so that no
 * other draw moves: an instant becomes the tick its long waits may also go
 * to (`WorldOptions.waitTo`), a wait the length of its long waits
 * (`jump`), unless `--jump` fixed it (`jumpFixed`: then instants only).
 * The options as they are when the probe saw none, the world has no
 * clock, or the seed has its instant already (a trace's).
 */
export function withClockMarks(options: WorldOptions, seed: number, marks: ClockMarks, jumpFixed = false): WorldOptions {
  const n = marks.instants.length + (jumpFixed ? 0 : marks.waits.length);
  if (n === 0 || options.waitTo !== undefined || !hasClock(options)) return options;
  const s = lightStream(seed, 'clock:wait-to');
  if (s.next() >= 1 / 2) return options;
  const k = Math.floor(s.next() * n);
  if (k < marks.instants.length) return { ...options, waitTo: marks.instants[k] };
  return { ...options, settings: { ...options.settings, jump: marks.waits[k - marks.instants.length] } };
}
