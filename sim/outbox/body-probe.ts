/**
 * Where a rule set's decisions read a body's size or content, found by
 * probing them as thresholds.ts probes a record's numbers and the clock:
 * each decision call a run noted (`ProbeCalls`) is asked again with every
 * body in it (the record's payload, the body on offer, the record as
 * stored) given a shape (body-shape.ts): characters outside the BMP,
 * combining marks, control characters, or N characters in all. Where the
 * answer, its bodies written as tokens of their letters, differs from the
 * answer on the letters (written so too), the decision reads that shape: a size limit, a
 * strip, a normalisation. Seeds then take that shape more often and the
 * small worlds search it ({@link withBodyMarks}; small-worlds.ts): a
 * blind review's new 256 KiB limit, which parks a body an older release
 * had already sent, needed version skew (one seed in four), a shape (one
 * in eight), a large one (one in four) past 256 KiB (three sizes in
 * eleven) and a lost reply at once, and was met by no seed of 5,000.
 * No size or character is built in: the sizes asked are powers of two and
 * a change between two is placed to the character by halving.
 */
import { canonicalJson } from '../core/canonical.ts';
import { lightStream } from '../core/chooser.ts';
import { digestOf } from '../../model/schema.ts';
import { OUTCOMES, type OutboxRecord, type Outcome } from '../../model/types.ts';
import { decodedEnvelope, type AdmitView, type RuleSet, type SelectView, type SweepView } from '../../model/rules.ts';
import { ALIKE_SHAPE_NAMES, alikeBody, BODY_SHAPE_NAMES, LARGE_CHARS_MAX, LARGE_CHARS_MIN, shapedBody } from './body-shape.ts';
import type { WorldOptions } from './options.ts';
import type { ProbeCall } from './thresholds.ts';
import { turnBetween } from './turn-between.ts';

/**
 * Bounds of the probe: the sizes asked one by one (2^k + 1 characters, k
 * from 0 to `exponentMax`), the changes of answer the sizes may show and
 * still count (more: an answer that follows the size, a length written
 * down, not a limit), and the marks kept.
 */
export const BODY_PROBE = { exponentMax: 20, changesMax: 3, marksMax: 4, readsMax: 4 } as const;

/** The sizes {@link BODY_PROBE} asks one by one, smallest first: to 1 MiB and one character, the largest the swarm draws. */
function probeSizes(): number[] {
  const out: number[] = [];
  for (let k = 0; k <= BODY_PROBE.exponentMax; k++) out.push(2 ** k + 1);
  return out.filter((n) => n >= LARGE_CHARS_MIN && n <= LARGE_CHARS_MAX);
}

/** The id the envelope is built for when its read-back body is asked (any task id: see {@link askShaped}). */
const READ_ID = 'a';

/** A body a world writes without a shape: one capital letter (world.ts, `bodyName`). */
const LETTER = /^[A-Z]$/;

/** The bodies of a call: its record's payload, the body on offer (`admit`), the stored record's; null when one of them is not a letter (a body with a shape already). */
function bodiesOf(call: ProbeCall): string[] | null {
  const found = new Set<string>();
  const add = (v: unknown): boolean => {
    if (v === undefined) return true;
    if (typeof v !== 'string' || !LETTER.test(v)) return false;
    found.add(v);
    return true;
  };
  const view = call.view as { body?: unknown; stored?: { raw?: Record<string, unknown> }; read?: { stored?: { raw?: Record<string, unknown> } } } | undefined;
  const ok = add(call.record.payload) && add(view?.body) && add(view?.stored?.raw?.payload) && add(view?.read?.stored?.raw?.payload);
  return ok && found.size > 0 ? [...found] : null;
}

/** Whether the probe can ask `call`: its bodies are letters ({@link bodiesOf}). */
export function hasLetterBodies(call: ProbeCall): boolean {
  return bodiesOf(call) !== null;
}

/** Each string of `v` found in `table` replaced by its entry, arrays and plain objects copied through (the id probe's tokens too: id-probe.ts). */
export function mapped(v: unknown, table: ReadonlyMap<string, string>): unknown {
  if (typeof v === 'string') return table.get(v) ?? v;
  if (Array.isArray(v)) return v.map((e) => mapped(e, table));
  if (v === null || typeof v !== 'object') return v;
  const o: Record<string, unknown> = {};
  for (const [k, e] of Object.entries(v as Record<string, unknown>)) o[k] = mapped(e, table);
  return o;
}

/** `v` with each occurrence of a key of `table` inside its strings replaced by the key's entry (longest keys first: a body holds its letter). */
function tokenised(v: unknown, table: ReadonlyMap<string, string>): unknown {
  const keys = [...table.keys()].filter((k) => k.length > 0).sort((a, b) => b.length - a.length);
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') return keys.reduce((s, k) => (s.includes(k) ? s.split(k).join(table.get(k)) : s), x);
    if (Array.isArray(x)) return x.map(walk);
    if (x === null || typeof x !== 'object') return x;
    const o: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(x as Record<string, unknown>)) o[k] = walk(e);
    return o;
  };
  return walk(v);
}

/**
 * The tables of an ask: `there` gives each letter (and its digest: a record's digest moves with its
 * payload) its body of `shape` (none: the letters as they are); `back` writes each body asked (and its
 * digest) as a token of its letter, in the answer on the letters and on the shape alike. A token, not
 * the letter: a rule that strips a shape's characters answers its letter, which then differs.
 */
function tables(letters: readonly string[], shape: string | null): { there: Map<string, string>; back: Map<string, string> } {
  const there = new Map<string, string>();
  const back = new Map<string, string>();
  for (const [i, letter] of letters.entries()) {
    // The shaped bodies are made of A, B, ... whatever letters the call had: a large body is made (and its
    // digest taken) once per letter and size, and every call shares the first letters.
    const body = shape === null ? letter : shapedBody(String.fromCharCode(65 + i), shape);
    if (shape !== null) {
      there.set(letter, body);
      there.set(digestOf(letter), digestOf(body));
    }
    back.set(body, `\u0000body ${letter}`);
    back.set(digestOf(body), `\u0000digest ${letter}`);
  }
  return { there, back };
}

/**
 * What `call` asks again: its own decision, or (`'read'`) the envelope built
 * from a pre-send call's record: the body a consumer reads of it, `decode`
 * after `envelope` (an encoding that does not round-trip a shape: a body the
 * broker holds that nobody wrote), and its other fields (a key built
 * otherwise for a large body: two ids with one such body share it).
 */
type Ask = 'decision' | 'read';

/** Asks `call`'s decision (or the read {@link Ask} names) again with its bodies given `shape` (null: as they are), `outcome` for `complete`: its answer, the bodies asked written as tokens, as text. */
function askShaped(rules: RuleSet, call: ProbeCall, outcome: Outcome | null, letters: readonly string[], shape: string | null, ask: Ask = 'decision'): string {
  const t = tables(letters, shape);
  const record = mapped(call.record, t.there) as OutboxRecord;
  const view = mapped(call.view, t.there);
  const answer = (): unknown => {
    // The task id does not reach a body's encoding; the record's payload does. The answer is whether the body
    // comes back, not what it becomes: a compressed body differs at every size, and is one change, not many.
    if (ask === 'read') {
      const envelope = rules.envelope(READ_ID, record);
      // Its other fields with the body and its digest written as their tokens wherever they stand in them
      // (a key hashed from every body turns at no shape), the body as whether it comes back.
      const { body: _sent, ...others } = envelope;
      return { ...(tokenised(others, t.back) as Record<string, unknown>), body: t.back.get(decodedEnvelope(rules, envelope).body) ?? 'altered' };
    }
    switch (call.decision) {
      case 'preSend':
        return rules.preSend(record, view as typeof call.view);
      case 'complete':
        return rules.complete(record, outcome ?? call.outcome, call.limits, view as typeof call.view);
      case 'requeue':
        return rules.requeue(record, call.reset, view as typeof call.view);
      case 'selectable':
        return view === undefined ? true : (rules.selectable?.call(rules, record, view as SelectView) ?? true);
      case 'sweepable':
        return rules.sweepable?.call(rules, record, view as SweepView) ?? false;
      case 'admit':
        return rules.admit(view as AdmitView);
    }
  };
  try {
    return canonicalJson(mapped(answer(), t.back));
  } catch {
    // A decision that throws on a shape answers so there (the check reports the throw where a run meets it).
    return 'throws';
  }
}

/**
 * The body shapes at which some noted call of `rules` answers otherwise
 * than on its letters: `astral`, `combining`, `control` as named, and
 * `large:N` for each size N at which the answer turns (a limit: the first
 * size past it). Smallest first, each once, at most {@link BODY_PROBE}.marksMax.
 */
export function probeBodies(rules: RuleSet, calls: readonly ProbeCall[]): string[] {
  const names = new Set<string>();
  const sizes = new Set<number>();
  const asked = probeSizes();
  const reads = new Set<string>();
  const asks: [ProbeCall, Outcome | null, Ask][] = [];
  for (const call of calls) {
    if (call.decision === 'complete') for (const outcome of OUTCOMES) asks.push([call, outcome, 'decision']);
    else asks.push([call, null, 'decision']);
    // The envelope's body, read back, once per record a pre-send call had (a handful: the record, not the view, is built into it).
    if (call.decision !== 'preSend' || reads.size >= BODY_PROBE.readsMax) continue;
    const key = canonicalJson(call.record);
    if (reads.has(key)) continue;
    reads.add(key);
    asks.push([call, null, 'read']);
  }
  for (const [call, outcome, what] of asks) {
    const letters = bodiesOf(call);
    if (letters === null) continue;
    const base = askShaped(rules, call, outcome, letters, null, what);
    for (const name of BODY_SHAPE_NAMES) if (name !== 'large' && askShaped(rules, call, outcome, letters, name, what) !== base) names.add(name);
    // One letter is a body of 1 character: the sizes turn from there.
    const ask = (chars: number): string => (chars <= 1 ? base : askShaped(rules, call, outcome, letters, `large:${chars}`, what));
    const turns: number[] = [];
    let before = base;
    let from = 1;
    for (let i = 0; i < asked.length && turns.length <= BODY_PROBE.changesMax; i++) {
      const now = ask(asked[i]);
      if (now !== before) turns.push(turnBetween(ask, from, asked[i], before));
      before = now;
      from = asked[i];
    }
    if (turns.length <= BODY_PROBE.changesMax) for (const t of turns) sizes.add(Math.max(LARGE_CHARS_MIN, t));
  }
  const large = [...sizes].sort((a, b) => a - b).map((n) => `large:${n}`);
  const named = BODY_SHAPE_NAMES.filter((n) => names.has(n));
  return [...large, ...named, ...alikeMarks(rules, calls)].slice(0, BODY_PROBE.marksMax);
}

/**
 * The alike shapes (body-shape.ts: two bodies that differ only by letter
 * case, an accent's normal form, a trailing space, CR LF against LF) at
 * which a noted `admit` of a found record answers a body that differs from
 * the record's payload only so otherwise than another body: the decision
 * compares bodies folded (a case-insensitive collation, a trimming or
 * normalising compare), and takes a new body for the one delivered or
 * parked. An exact compare answers both new bodies alike.
 */
function alikeMarks(rules: RuleSet, calls: readonly ProbeCall[]): string[] {
  const marks = new Set<string>();
  const seen = new Set<string>();
  for (const call of calls) {
    if (call.decision !== 'admit' || call.view.read.kind !== 'found') continue;
    const payload = call.view.read.record.payload;
    if (typeof payload !== 'string' || !LETTER.test(payload)) continue;
    // Once per status and read: the record's other fields are not what a body compare reads.
    const key = `${call.view.read.record.status}/${call.view.read.record.reason ?? ''}`;
    if (seen.has(key) || seen.size >= BODY_PROBE.readsMax) continue;
    seen.add(key);
    for (const shape of ALIKE_SHAPE_NAMES) {
      const stored = alikeBody(payload, shape, 0);
      const there = new Map([[payload, stored], [digestOf(payload), digestOf(stored)]]);
      const view = mapped(call.view, there) as AdmitView;
      const ask = (body: string): string => {
        const back = new Map([[stored, '\u0000stored'], [digestOf(stored), '\u0000stored digest'], [body, '\u0000offered'], [digestOf(body), '\u0000offered digest']]);
        try {
          return canonicalJson(mapped(rules.admit({ ...view, body }), back));
        } catch {
          return 'throws';
        }
      };
      const other = alikeBody(String.fromCharCode(payload.charCodeAt(0) === 90 ? 89 : payload.charCodeAt(0) + 1), shape, 0);
      if (ask(alikeBody(payload, shape, 1)) !== ask(other)) marks.add(shape);
    }
  }
  return ALIKE_SHAPE_NAMES.filter((n) => marks.has(n));
}

/**
 * A seed's options with its bodies given a shape a decision reads
 * ({@link probeBodies}): in one seed in four of those whose bodies have no
 * shape, one of the marks drawn from a stream of the seed's own
 * (`bodies:mark`), so that no other draw moves. The options as they are
 * when the probe saw none.
 */
export function withBodyMarks(options: WorldOptions, seed: number, marks: readonly string[]): WorldOptions {
  if (marks.length === 0 || options.bodyShape !== undefined) return options;
  const s = lightStream(seed, 'bodies:mark');
  if (s.next() >= 1 / 4) return options;
  return { ...options, bodyShape: marks[Math.floor(s.next() * marks.length)] };
}
