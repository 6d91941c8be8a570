/**
 * Where a rule set's decisions fold ids, found by probing them as
 * body-probe.ts probes bodies: every decision that receives an id (the
 * envelope, `admit`, `selectable` and `sweepable` through their view's
 * `id`: model/rules.ts) is asked again for the two ids of each id shape
 * (id-shape.ts: ids that differ only by case, by Unicode normalisation or
 * by a trailing space), with the same record and view. The envelope of two
 * distinct ids that gets one key (or one envelope id) where `a` and `b`
 * get two conflates them: a broker deduping by key (or by id) keeps one
 * task's body and drops the other's. Another decision that answers the two
 * ids of a shape otherwise where it answers `a` and `b` alike (each id read
 * back as one token) reads the shape: a selection or an admission that
 * trims or folds. Seeds then take that shape more often and the small
 * worlds search it ({@link withIdMarks}; small-worlds.ts). A blind
 * review's key lower-cased (`${id}#${epoch}`.toLowerCase()) loses a body
 * only where two ids differ in case alone, which no world had.
 */
import { canonicalJson } from '../core/canonical.ts';
import { lightStream } from '../core/chooser.ts';
import type { Envelope, OutboxRecord } from '../../model/types.ts';
import type { AdmitView, RuleSet, SelectView, SweepView } from '../../model/rules.ts';
import { collideShape, ID_SHAPE_NAMES, idPair, orderedShapes } from './id-shape.ts';
import type { WorldOptions } from './options.ts';
import type { ProbeCall } from './thresholds.ts';
import { mapped } from './body-probe.ts';

/**
 * Bounds of the probe: the distinct records the envelope is asked on; the
 * plain ids whose keys are compared in one cycle; and, across cycles, the
 * first `epochIds` of them at each resend epoch up to `epochsMax` past the
 * record's, against all of them at its own.
 */
export const ID_PROBE = { recordsMax: 32, collideIds: 5000, epochIds: 1000, epochsMax: 16 } as const;

/** The ids of a world without a shape, the probe's baseline. */
const PLAIN_PAIR = ['a', 'b'] as const;

/** The token an asked id is read back as in an answer (the same for both ids of a pair: answers that only carry the id compare equal). */
const ID_TOKEN = '\u0000id';

/** The envelope of `id` for `record`, or null when the decision throws. */
function envelopeOf(rules: RuleSet, id: string, record: OutboxRecord): Envelope | null {
  try {
    return rules.envelope(id, record);
  } catch {
    return null;
  }
}

/** Whether the envelopes of two distinct ids are one to a broker: one key or one envelope id (a decision that throws on one only counts too). */
function conflated(x: Envelope | null, y: Envelope | null): { key: boolean; id: boolean; throws: boolean } {
  if (x === null || y === null) return { key: false, id: false, throws: (x === null) !== (y === null) };
  return { key: x.key === y.key, id: x.id === y.id, throws: false };
}

/** Asks `call`'s decision again with its view's id set to `id`: its answer, the id read back as a token, as text; null when the call's decision receives no id. */
function askWithId(rules: RuleSet, call: ProbeCall, id: string): string | null {
  const answer = (): unknown => {
    switch (call.decision) {
      case 'admit':
        return rules.admit({ ...call.view, id } as AdmitView);
      case 'selectable':
        return call.view === undefined ? null : (rules.selectable?.call(rules, call.record, { ...call.view, id } as SelectView) ?? true);
      case 'sweepable':
        return rules.sweepable?.call(rules, call.record, { ...call.view, id } as SweepView) ?? false;
      default:
        return undefined;
    }
  };
  if (call.decision !== 'admit' && call.decision !== 'selectable' && call.decision !== 'sweepable') return null;
  if (call.decision === 'selectable' && call.view === undefined) return null;
  try {
    return canonicalJson(mapped(answer(), new Map([[id, ID_TOKEN]])));
  } catch {
    // A decision that throws on an id answers so there (the check reports the throw where a run meets it).
    return 'throws';
  }
}

/** The distinct records of `calls` (by their canonical text), at most {@link ID_PROBE}.recordsMax. */
function recordsOf(calls: readonly ProbeCall[]): OutboxRecord[] {
  const seen = new Set<string>();
  const out: OutboxRecord[] = [];
  for (const call of calls) {
    if (out.length >= ID_PROBE.recordsMax) break;
    if (call.decision === 'admit' && call.view.read.kind !== 'found') continue;
    const text = canonicalJson(call.record);
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(call.record);
  }
  return out;
}

/**
 * The id shapes ({@link ID_SHAPE_NAMES}, in that order) whose two ids some decision of `rules` folds:
 * the envelope gives them one key or one envelope id where it gives `a` and `b` two (asked on the records
 * of `calls`), or a decision that receives an id answers them otherwise where it answers `a` and `b` alike
 * (asked as in `calls`).
 */
export function probeIds(rules: RuleSet, calls: readonly ProbeCall[]): string[] {
  const marks = new Set<string>();
  const [a, b] = PLAIN_PAIR;
  for (const record of recordsOf(calls)) {
    const base = conflated(envelopeOf(rules, a, record), envelopeOf(rules, b, record));
    for (const shape of ID_SHAPE_NAMES) {
      if (marks.has(shape)) continue;
      const [x, y] = idPair(shape);
      const now = conflated(envelopeOf(rules, x, record), envelopeOf(rules, y, record));
      if ((now.key && !base.key) || (now.id && !base.id) || (now.throws && !base.throws)) marks.add(shape);
    }
  }
  for (const call of calls) {
    const baseA = askWithId(rules, call, a);
    if (baseA === null || baseA !== askWithId(rules, call, b)) continue;
    for (const shape of ID_SHAPE_NAMES) {
      if (marks.has(shape)) continue;
      const [x, y] = idPair(shape);
      if (askWithId(rules, call, x) !== askWithId(rules, call, y)) marks.add(shape);
    }
  }
  const first = recordsOf(calls)[0];
  const pair = first === undefined ? null : collision(rules, first);
  if (pair !== null) marks.add(pair);
  return orderedShapes(marks);
}

/**
 * Two plain ids of `order-0` .. `order-{@link ID_PROBE}.collideIds - 1` whose envelopes on `record` share a
 * key or an envelope id, as a shape (`collide:N:M`), or null: a key built from a hash bucket of the id (4,096
 * buckets meet in about 80 ids) or a short checksum, which two ids `a` and `b` almost never meet. None when
 * `a` and `b` share one already (a key that ignores the id: the worlds of ids named alike find it).
 */
function collision(rules: RuleSet, record: OutboxRecord): string | null {
  const [a, b] = PLAIN_PAIR;
  const base = conflated(envelopeOf(rules, a, record), envelopeOf(rules, b, record));
  if (base.key || base.id || base.throws) return null;
  const keys = new Map<string, number>();
  const ids = new Map<string, number>();
  for (let n = 0; n < ID_PROBE.collideIds; n++) {
    const e = envelopeOf(rules, `order-${n}`, record);
    if (e === null) continue;
    const k = keys.get(e.key);
    if (k !== undefined) return collideShape(k, n);
    keys.set(e.key, n);
    const i = ids.get(e.id);
    if (i !== undefined) return collideShape(i, n);
    ids.set(e.id, n);
  }
  // Across cycles: an id requeued (its resend epoch counted up) whose key is another id's in its first cycle. A key
  // that joins the id and the epoch without a separator (order-1 at epoch 10 and order-11 at 0), or adds them, meets
  // it; the fewest requeues first.
  for (let epoch = 1; epoch <= ID_PROBE.epochsMax; epoch++) {
    const later = { ...record, resendEpoch: record.resendEpoch + epoch };
    for (let n = 0; n < ID_PROBE.epochIds; n++) {
      const e = envelopeOf(rules, `order-${n}`, later);
      const m = e === null ? undefined : keys.get(e.key);
      if (m !== undefined && m !== n) return collideShape(n, m);
    }
  }
  return null;
}

/**
 * A seed's options with its ids given a shape a decision folds ({@link probeIds}): in one seed in four of
 * those with two ids and no shape of their own (no id shape, no ids named alike: the two exclude each
 * other), one of the marks drawn from a stream of the seed's own (`ids:mark`), so that no other draw
 * moves. The options as they are when the probe saw none.
 */
export function withIdMarks(options: WorldOptions, seed: number, marks: readonly string[]): WorldOptions {
  if (marks.length === 0 || options.ids < 2 || options.idShape !== undefined || options.longIds === true) return options;
  const s = lightStream(seed, 'ids:mark');
  if (s.next() >= 1 / 4) return options;
  return { ...options, idShape: marks[Math.floor(s.next() * marks.length)] };
}
