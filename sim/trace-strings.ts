/**
 * Long strings in a trace line, written in runs (traces/README.md, 'Long strings'). A world of large
 * bodies (docs/protocol.md, 'Body shapes') holds a payload of a megabyte in its records, its files, its
 * broker and its lists: written as it is, a trace repeated it at every change of state (a 422-step trace
 * came to 410 MB, and a line of more than 1 Mi characters is refused by the reader). A string longer than
 * {@link LONG_STRING_CHARS} is written as `{"$chars": [piece, ...]}`, each piece a literal string or
 * `[unit, times]`: the unit repeated that many times. The bodies the producer writes and what a rule or a
 * store makes of them (cut, lowercased, stripped, wrapped) are runs of a few characters, so such a trace
 * stays a few kilobytes; a string without runs is written whole, in literal pieces.
 *
 * Unambiguous: an object of one key `$chars` or `$object` in the data is written `{"$object": {...}}`.
 * Every other value, and every trace without a long string, is written as before (its id unchanged).
 */

/** Strings longer than this are written in runs. */
export const LONG_STRING_CHARS = 1024;
/** The longest unit of a run looked for. */
const UNIT_MAX = 32;
/** The fewest characters a run covers (shorter ones stay in the literal around them). */
const RUN_MIN = 64;

/** One piece of a long string: a literal, or a unit repeated. */
export type Piece = string | [unit: string, times: number];

/** A long string's pieces: its longest runs of a unit of up to {@link UNIT_MAX} characters, the rest literal. */
export function piecesOf(s: string): Piece[] {
  const out: Piece[] = [];
  let literalFrom = 0;
  let i = 0;
  const n = s.length;
  while (i < n) {
    let run = 0;
    let unit = 0;
    // The shortest unit whose run from here covers RUN_MIN characters or more (a unit's multiples cover no more).
    for (let p = 1; p <= UNIT_MAX && i + RUN_MIN <= n; p++) {
      let j = p;
      while (i + j < n && s.charCodeAt(i + j) === s.charCodeAt(i + j - p)) j++;
      const cover = j - (j % p);
      if (cover >= RUN_MIN && cover >= 2 * p) {
        run = cover;
        unit = p;
        break;
      }
    }
    if (run === 0) {
      i++;
      continue;
    }
    if (literalFrom < i) out.push(s.slice(literalFrom, i));
    out.push([s.slice(i, i + unit), run / unit]);
    i += run;
    literalFrom = i;
  }
  if (literalFrom < n) out.push(s.slice(literalFrom));
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether an object of the data would read as a written form: one key, `$chars` or `$object`. */
function looksWritten(o: Record<string, unknown>): boolean {
  const keys = Object.keys(o);
  return keys.length === 1 && (keys[0] === '$chars' || keys[0] === '$object');
}

/** The most characters of long strings whose pieces are remembered (a body met at every step is cut once). */
const PIECES_MEMO_CHARS = 64 * 1024 * 1024;
const piecesMemo = new Map<string, Piece[]>();
let piecesMemoChars = 0;

function rememberedPieces(s: string): Piece[] {
  let pieces = piecesMemo.get(s);
  if (pieces === undefined) {
    pieces = piecesOf(s);
    for (const k of piecesMemo.keys()) {
      if (piecesMemoChars + s.length <= PIECES_MEMO_CHARS) break;
      piecesMemo.delete(k);
      piecesMemoChars -= k.length;
    }
    piecesMemo.set(s, pieces);
    piecesMemoChars += s.length;
  }
  return pieces;
}

/** `value` as a trace line writes it: every long string in runs. The same value back when it holds none. */
export function writtenForm(value: unknown): unknown {
  if (typeof value === 'string') return value.length > LONG_STRING_CHARS ? { $chars: rememberedPieces(value) } : value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const w = writtenForm(value[i]);
      if (w !== value[i]) (out ??= value.slice())[i] = w;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | null = null;
  for (const k of Object.keys(value)) {
    const w = writtenForm(value[k]);
    if (w !== value[k]) (out ??= { ...value })[k] = w;
  }
  const o = out ?? value;
  return looksWritten(value) ? { $object: o } : o;
}

/** What reading a trace's long strings may make: no string past it, nor past `total` characters of strings made in all. */
export interface ReadBudget {
  stringChars: number;
  total: number;
  /** Strings made so far, by their written pieces: a body met at every step is one string. */
  made: Map<string, string>;
  used: number;
}

/** A budget for one trace. */
export function readBudget(stringChars = 16 * 1024 * 1024, total = 128 * 1024 * 1024): ReadBudget {
  return { stringChars, total, made: new Map(), used: 0 };
}

/** Why a written form cannot be read (its pieces are not pieces, or a string would pass the budget); thrown by {@link readForm}. */
export class WrittenFormError extends Error {}

/** The string `pieces` stand for. */
function joined(pieces: unknown, budget: ReadBudget): string {
  if (!Array.isArray(pieces)) throw new WrittenFormError('$chars is not a list of pieces');
  const key = JSON.stringify(pieces);
  const known = budget.made.get(key);
  if (known !== undefined) return known;
  let length = 0;
  for (const p of pieces) {
    if (typeof p === 'string') length += p.length;
    else if (Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && p[0].length > 0 && Number.isSafeInteger(p[1]) && (p[1] as number) > 0) length += p[0].length * (p[1] as number);
    else throw new WrittenFormError('a piece of $chars is neither a string nor [unit, times]');
    if (length > budget.stringChars) throw new WrittenFormError(`a string of more than ${budget.stringChars} characters`);
  }
  if (budget.used + length > budget.total) throw new WrittenFormError(`strings of more than ${budget.total} characters in all`);
  budget.used += length;
  const s = pieces.map((p) => (typeof p === 'string' ? p : (p[0] as string).repeat(p[1] as number))).join('');
  budget.made.set(key, s);
  return s;
}

/** `value` as written by {@link writtenForm}, read back: every `$chars` its string, every `$object` its object. */
export function readForm(value: unknown, budget: ReadBudget): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const r = readForm(value[i], budget);
      if (r !== value[i]) (out ??= value.slice())[i] = r;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  if (looksWritten(value)) {
    if ('$chars' in value) return joined(value.$chars, budget);
    const inner = value.$object;
    if (!isPlainObject(inner)) throw new WrittenFormError('$object is not an object');
    return readFields(inner, budget);
  }
  return readFields(value, budget);
}

function readFields(value: Record<string, unknown>, budget: ReadBudget): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const k of Object.keys(value)) {
    const r = readForm(value[k], budget);
    if (r !== value[k]) (out ??= { ...value })[k] = r;
  }
  return out ?? value;
}
