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
 * docs/properties.md, 'Long life').
 */
import { canonicalJson } from '../core/canonical.ts';
import { sameSelectionKind, type DecisionView, type RequeueView, type RuleSet, type SelectView } from '../../model/rules.ts';
import { OUTCOMES, type OutboxRecord, type Outcome } from '../../model/types.ts';

/**
 * Bounds of the probe: values probed one by one (0..max) and then at `far`
 * points (a change between two of them is placed by halving the gap), calls
 * kept per decision and status, changes of answer a field may show and
 * still count as thresholds, the seeds whose runs give the calls, and how
 * far the clock and the attempts limit are moved.
 */
export const THRESHOLD_PROBE = { max: 64, far: [96, 128, 192, 256, 384, 512], callsPerCase: 1, changesMax: 3, seeds: 32, shift: 1_000_000 } as const;

/** The furthest value the probe asks: a threshold past it is not seen. */
export const THRESHOLD_PROBE_END = THRESHOLD_PROBE.far[THRESHOLD_PROBE.far.length - 1];

/** A decision that answers otherwise once `field` is `at` or more (than below it). */
export interface Threshold {
  decision: string;
  field: string;
  at: number;
}

/** A decision asked on a record in a run, its arguments as given. */
type Call =
  | { decision: 'preSend'; record: OutboxRecord; view: DecisionView | undefined }
  | { decision: 'complete'; record: OutboxRecord; outcome: Outcome; limits: { attemptsMax: number }; view: DecisionView | undefined }
  | { decision: 'requeue'; record: OutboxRecord; reset: boolean; view: RequeueView | undefined }
  | { decision: 'selectable'; record: OutboxRecord; view: SelectView | undefined };

/** The calls a recording rule set kept: at most {@link THRESHOLD_PROBE}.callsPerCase per decision and record status. */
export class ProbeCalls {
  readonly calls: Call[] = [];
  private readonly per = new Map<string, number>();

  note(call: Call): void {
    // The case: the decision, the record's status, and what else picks a branch (the operator's action, a reset).
    const how = call.decision === 'requeue' ? `${call.view?.action ?? ''}/${String(call.reset)}` : '';
    const key = `${call.decision}\u0000${String(call.record.status)}\u0000${how}`;
    const n = this.per.get(key) ?? 0;
    if (n >= THRESHOLD_PROBE.callsPerCase) return;
    this.per.set(key, n + 1);
    this.calls.push(call);
  }
}

/** `rules` with the record decisions it is asked noted in `into` (then answered as `rules` answers; a selection by the record alone stays one). */
export function recordingRules(rules: RuleSet, into: ProbeCalls): RuleSet {
  const { selectable } = rules;
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

/** `view` with the clock moved by `shift` and, when it holds the stored record, that record's `field` set to `x` too. */
function viewWith<V extends { now: number; stored?: { raw: Readonly<Record<string, unknown>> } }>(view: V | undefined, field: string, x: number, shift: number): V | undefined {
  if (view === undefined) return undefined;
  const stored = view.stored;
  return {
    ...view,
    now: view.now + shift,
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
function changes(rules: RuleSet, call: Call, outcome: Outcome | null, field: string, shift: number): number[] {
  const ask = (x: number): string => askAt(rules, call, outcome, field, x, shift);
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
    if (now !== before) {
      // before is the answer at `from`, now at `to`: the first value in (from, to] that answers as `to` does.
      let lo = from;
      let hi: number = to;
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (ask(mid) === before) lo = mid;
        else hi = mid;
      }
      out.push(hi);
    }
    before = now;
    from = to;
  }
  return out;
}

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
  ) {
    this.byField = thresholdsByField(seen.map((s) => s.threshold));
  }

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
export const NO_THRESHOLDS = new RuleThresholds({} as RuleSet, []);

/**
 * The thresholds of `rules` on the calls noted: per call, per top-level
 * number of its record (and for `complete`, per outcome), the values at
 * which the answer changes both as asked and with the world's limits moved
 * off ({@link THRESHOLD_PROBE}.shift), when there are at most
 * {@link THRESHOLD_PROBE}.changesMax of them (more: an answer that follows
 * the value, not a threshold). Sorted by field and value, each once.
 */
export function probeThresholds(rules: RuleSet, calls: readonly Call[]): RuleThresholds {
  const found = new Map<string, Seen>();
  for (const call of calls) {
    const outcomes: (Outcome | null)[] = call.decision === 'complete' ? [...OUTCOMES] : [null];
    for (const field of Object.keys(call.record)) {
      if (typeof call.record[field] !== 'number') continue;
      for (const outcome of outcomes) {
        const moved = changes(rules, call, outcome, field, THRESHOLD_PROBE.shift);
        if (moved.length === 0 || moved.length > THRESHOLD_PROBE.changesMax) continue;
        const asAsked = new Set(changes(rules, call, outcome, field, 0));
        for (const at of moved) {
          if (!asAsked.has(at)) continue;
          const key = `${call.decision}\u0000${field}\u0000${at}`;
          let s = found.get(key);
          if (s === undefined) found.set(key, (s = { threshold: { decision: call.decision, field, at }, sources: [] }));
          s.sources.push({ call, outcome });
        }
      }
    }
  }
  const order = (a: Threshold, b: Threshold): number => (a.field < b.field ? -1 : a.field > b.field ? 1 : a.at - b.at || (a.decision < b.decision ? -1 : a.decision > b.decision ? 1 : 0));
  return new RuleThresholds(rules, [...found.values()].sort((a, b) => order(a.threshold, b.threshold)));
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
