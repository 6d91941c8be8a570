/**
 * Bodies of other shapes than one ASCII letter (docs/protocol.md, 'Body shapes'). Real stores and brokers
 * trim whitespace, normalise Unicode, strip characters outside the Basic Multilingual Plane (a utf8mb3
 * column), choke on NUL, quotes, backslashes or newlines, cap sizes and take a path of their own for large
 * payloads; a rule set written against them meets none of that on bodies `A`, `B`. A world's `bodyShape`
 * gives every body the producer writes its distinct leading letter (labels, messages and diagrams name
 * bodies by it) followed by one shape:
 *
 * - `astral`: characters outside the BMP (an emoji and a CJK ideograph of plane 2: two UTF-16 units each);
 * - `combining`: a letter with a combining mark (NFD) beside a precomposed one (NFC), so that either
 *   normalisation changes the body;
 * - `control`: control and markup characters (a quote, an apostrophe, a backslash, a lone newline, a CR LF
 *   pair, a lone carriage return, a tab, NUL, `<`, `&`, `>`), ending in a space;
 * - `large:N`: N characters in all (ASCII, so as many bytes in UTF-8): the swarm draws N just past a
 *   power of two from 1 KiB to 1 MiB, past whatever size limit a store, a broker or a rule draws.
 *
 * The swarm gives one seed in eight a shape, from a stream of its own (`bodies:shape`), so that no other
 * draw moves; `explore --body-shape` (and `diff`) gives it to the world searched.
 */
import { lightStream } from '../core/chooser.ts';
import { countText } from '../count-text.ts';

/** The tag check counts once per run whose bodies have a shape, followed by the shape's name (the summary's Layers line). */
export const BODY_SHAPE_TAG = 'bodies:';

/** The shapes by name (`large` takes its size: `large:N`), which the swarm draws. */
export const BODY_SHAPE_NAMES = ['astral', 'combining', 'control', 'large'] as const;

/**
 * Shapes of two bodies of one id that differ only by what a comparison may
 * fold (a database collation, a normalising or trimming compare): letter
 * case, a precomposed against a decomposed accent, a trailing space, CR LF
 * against LF; or two bodies whose digests begin alike, which a digest cut
 * to a short column (a CHAR(4) of hex) takes for one. In a world of such a
 * shape an id's first two bodies are the two forms of its first letter
 * ({@link alikeBody}); its other bodies are their letters. Not drawn: the
 * body probe marks one where a decision answers the two forms as one body
 * (body-probe.ts), and `explore --body-shape` gives it.
 */
export const ALIKE_SHAPE_NAMES = ['case', 'accent', 'space', 'crlf', 'digest'] as const;
export type AlikeShapeName = (typeof ALIKE_SHAPE_NAMES)[number];
export type BodyShapeName = (typeof BODY_SHAPE_NAMES)[number] | AlikeShapeName;

/**
 * For each letter, a body of it and a few characters of [0-9a-zA-Z] whose
 * digest (model/schema.ts, `digestOf`) begins with the same
 * {@link DIGEST_TWIN_HEX} hex digits as the letter's: the first in order of
 * length, then of those characters, found once by a search of about 16
 * million digests a letter (body-shape.test.ts holds each to it).
 */
export const DIGEST_TWINS: Readonly<Record<string, string>> = {
  A: 'Af1100',
  B: 'BTbEy',
  C: 'CvZA',
  D: 'DXqx0',
  E: 'E8egQ1',
  F: 'FFvwe3',
  G: 'Gfy4z',
  H: 'HR2tq1',
  I: 'I5KKu',
  J: 'J7A6G',
  K: 'K5fMw',
  L: 'LzKFx',
  M: 'MCYLd0',
  N: 'N5OA22',
  O: 'OobXd',
  P: 'PeACh',
  Q: 'QxTWJ',
  R: 'RCN390',
  S: 'S7VPt0',
  T: 'TGTb3',
  U: 'UADI8',
  V: 'VRai4',
  W: 'WYd0Q1',
  X: 'X44t30',
  Y: 'YdiBC',
  Z: 'ZdPzL',
};

/** The hex digits a digest twin shares with its letter's digest, from the first: a digest cut to 6 characters or fewer takes the two for one. */
export const DIGEST_TWIN_HEX = 6;

/** The two forms of letter `letter` in an alike shape: equal once folded, distinct as written. */
const ALIKE_FORMS: Readonly<Record<AlikeShapeName, (letter: string) => readonly [string, string]>> = {
  case: (l) => [`${l}b`, `${l.toLowerCase()}B`],
  accent: (l) => [`${l}\u00e9`, `${l}e\u0301`],
  space: (l) => [l, `${l} `],
  crlf: (l) => [`${l}\r\n`, `${l}\n`],
  digest: (l) => [l, DIGEST_TWINS[l] ?? `${l}0`],
};

/** What the two bodies of each shape a comparison folds differ by, in words (the options line, the summary's bodies line). */
export const ALIKE_FOLD_WORDS: Readonly<Record<Exclude<AlikeShapeName, 'digest'>, string>> = {
  case: 'letter case',
  accent: "an accent's normal form",
  space: 'a trailing space',
  crlf: 'CR LF against LF',
};

/** How an alike shape's two bodies are alike, in words after "two bodies". */
export function alikeWords(shape: AlikeShapeName): string {
  return shape === 'digest' ? `whose digests share their first ${DIGEST_TWIN_HEX} hex digits` : `differing only by ${ALIKE_FOLD_WORDS[shape]}`;
}

/** Whether `shape` is one of {@link ALIKE_SHAPE_NAMES}. */
export function isAlikeShape(shape: string | undefined): shape is AlikeShapeName {
  return (ALIKE_SHAPE_NAMES as readonly (string | undefined)[]).includes(shape);
}

/** Form `form` (0 or 1) of letter `letter` in the alike shape `shape`. */
export function alikeBody(letter: string, shape: AlikeShapeName, form: 0 | 1): string {
  return ALIKE_FORMS[shape](letter)[form];
}

/** The fewest and the most characters of a `large:N` body (the flag's and a trace header's bounds). */
export const LARGE_CHARS_MIN = 2;
export const LARGE_CHARS_MAX = 4 * 1024 * 1024;

/** The exponents of the sizes the swarm draws for `large`: a body of 2^k + 1 characters, k from 10 to 20. */
const LARGE_EXPONENT_MIN = 10;
const LARGE_EXPONENT_MAX = 20;

/** What each shape appends to a body's letter (`large` fills up to its size instead). */
const SUFFIX: Readonly<Record<Exclude<(typeof BODY_SHAPE_NAMES)[number], 'large'>, string>> = {
  astral: '\u{1F4E6}\u{20BB7}',
  combining: 'e\u0301\u00e9',
  // A lone LF, then CR LF (a line ending a client or proxy rewrites to LF, or LF to CR LF), then a lone CR.
  control: ' "q\'\\\n\r\n\r\t\u0000<&> ',
};

/** The character a large body is filled with after its letter. */
const FILLER = 'x';

/** A shape's name and, for `large`, its size in characters; null when `text` names no shape. */
export function parseBodyShape(text: string): { name: BodyShapeName; chars: number | null } | null {
  const m = /^([a-z]+)(?::([0-9]{1,8}))?$/.exec(text);
  if (m === null || !([...BODY_SHAPE_NAMES, ...ALIKE_SHAPE_NAMES] as readonly string[]).includes(m[1])) return null;
  const name = m[1] as BodyShapeName;
  if (m[2] === undefined) return { name, chars: null };
  const chars = Number(m[2]);
  return name === 'large' && chars >= LARGE_CHARS_MIN && chars <= LARGE_CHARS_MAX ? { name, chars } : null;
}

/** Whether `text` is a shape a world holds: a name, and `large` with its size. */
export function isWorldBodyShape(text: string): boolean {
  const p = parseBodyShape(text);
  return p !== null && (p.name === 'large') === (p.chars !== null);
}

/** The size `large` is given where nothing draws it (explore): the largest the swarm draws. */
export const LARGE_CHARS_SEARCH = 2 ** LARGE_EXPONENT_MAX + 1;

/** A large body's size drawn from a stream: 2^k + 1 characters, k uniform from 10 to 20. */
function largeChars(next: () => number): number {
  return 2 ** (LARGE_EXPONENT_MIN + Math.floor(next() * (LARGE_EXPONENT_MAX - LARGE_EXPONENT_MIN + 1))) + 1;
}

/**
 * A seed's body shape (`WorldOptions.bodyShape`): one seed in eight, from the stream `bodies:shape`, one
 * shape of {@link BODY_SHAPE_NAMES} (a large one with its size drawn from the same stream); undefined
 * otherwise, so that every other seed keeps its options. `fixed` (the flag) gives every seed that shape,
 * `large` without a size still drawn per seed.
 */
export function bodyShapeDrawn(seed: number, fixed?: string): string | undefined {
  const s = lightStream(seed, 'bodies:shape');
  const next = (): number => s.next();
  if (fixed !== undefined) {
    const p = parseBodyShape(fixed);
    if (p === null) return undefined;
    return p.name !== 'large' ? p.name : `large:${p.chars ?? largeChars(next)}`;
  }
  if (next() >= 1 / 8) return undefined;
  const name = BODY_SHAPE_NAMES[Math.floor(next() * BODY_SHAPE_NAMES.length)];
  return name === 'large' ? `large:${largeChars(next)}` : name;
}

/** The shape a search (explore) gives its world for `text` (`large` alone: {@link LARGE_CHARS_SEARCH}). */
export function searchBodyShape(text: string): string | undefined {
  const p = parseBodyShape(text);
  if (p === null) return undefined;
  return p.name !== 'large' ? p.name : `large:${p.chars ?? LARGE_CHARS_SEARCH}`;
}

/**
 * Values remembered by a string key until their strings pass a budget of characters, oldest first out:
 * long strings made once and shared, so that every state holds one string and compares it by identity
 * (two copies of a megabyte compare character by character).
 */
export class LongMemo<V> {
  private readonly map = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly budget: number,
    private readonly size: (key: string, value: V) => number,
  ) {}

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    const n = this.size(key, value);
    for (const [k, v] of this.map) {
      if (this.chars + n <= this.budget) break;
      this.map.delete(k);
      this.chars -= this.size(k, v);
    }
    this.map.set(key, value);
    this.chars += n;
  }
}

/** The most characters of shaped bodies kept at once: every body of a few dozen large worlds. */
const MADE_CHARS_BUDGET = 64 * 1024 * 1024;

/** The bodies made, by letter and shape: a large body is made once, and every state and seed shares it. */
const made = new LongMemo<string>(MADE_CHARS_BUDGET, (_k, body) => body.length);

/** The body of letter `letter` in a world of shape `shape` (undefined: the letter alone). */
export function shapedBody(letter: string, shape: string | undefined): string {
  if (shape === undefined) return letter;
  const key = `${letter}/${shape}`;
  let body = made.get(key);
  if (body === undefined) {
    const p = parseBodyShape(shape);
    if (p === null) throw new Error(`unknown body shape ${JSON.stringify(shape)}`);
    body = p.name === 'large' ? letter + FILLER.repeat(Math.max(0, (p.chars ?? LARGE_CHARS_SEARCH) - letter.length)) : isAlikeShape(p.name) ? alikeBody(letter, p.name, 0) : letter + SUFFIX[p.name];
    made.set(key, body);
  }
  return body;
}

/** A shape in a few words, for the options line, a trace's world line and the summary. */
export function bodyShapeWords(shape: string): string {
  const p = parseBodyShape(shape);
  if (p === null) return `shape ${JSON.stringify(shape)}`;
  if (p.name === 'large') return `${countText(p.chars ?? LARGE_CHARS_SEARCH)} characters each`;
  if (isAlikeShape(p.name)) return `an id's two bodies ${alikeWords(p.name)}`;
  return { astral: 'with characters outside the BMP', combining: 'with combining marks, not NFC', control: 'with control and markup characters, a trailing space' }[p.name];
}

/** The shapes the flag takes, for help text and its error. */
export const BODY_SHAPE_FLAG_VALUES = `${BODY_SHAPE_NAMES.filter((n) => n !== 'large').join(', ')}, large or large:N (N characters, ${countText(LARGE_CHARS_MIN)} to ${countText(LARGE_CHARS_MAX)}), or two bodies of an id alike: ${ALIKE_SHAPE_NAMES.join(', ')}`;
