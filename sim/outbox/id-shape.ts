/**
 * Ids of other shapes than `a`, `b` (docs/protocol.md, 'Id shapes'). Real stores and brokers compare ids
 * and keys under collations and normalisations: MySQL's default collation ignores case and trailing
 * spaces, some key indexes normalise Unicode (NFC, NFKC), a file-per-id outbox on a case-insensitive file
 * system folds case. A rule set that folds an id the same way (a key lower-cased, trimmed, normalised)
 * gives two distinct tasks one key, and a broker deduping by key drops one body; ids `a`, `b` never
 * meet it. A world's `idShape` names its two ids as a pair that differs only by
 *
 * - `case`: `Order-17` and `order-17`;
 * - `accent`: `café-17` written NFD (`e` and U+0301) and NFC (U+00E9): the same text on the page;
 * - `space`: `order-17` and `order-17 ` (a trailing space);
 * - `prefix`: two composite ids of 200 characters that differ only in their last one: a key cut to a
 *   column's or a broker's length (VARCHAR(64), MySQL's 191-character utf8mb4 index prefix, an SQS FIFO
 *   deduplication id's 128) makes them one.
 *
 * The world itself stays exact (ids compare by JavaScript string identity): only a rule that folds ids
 * makes them one. An id shape and ids named alike (`WorldOptions.longIds`) exclude each other: a seed of
 * ids named alike draws no shape (its own draw, `ids:long`, is kept as it was), and `explore` refuses both
 * flags at once. The swarm gives one seed in eight of those with two ids a shape, from a stream of its
 * own (`ids:shape`), so that no other draw moves; `explore --id-shape` (and `diff`) gives it to the world
 * searched. Every place that prints an id prints it through {@link idText}: quoted, with every character
 * outside printable ASCII escaped, when it is not plain.
 */
import { lightStream } from '../core/chooser.ts';
import { quotedText } from '../body-text.ts';

/** The tag check counts once per run whose ids have a shape, followed by the shape's name (the summary's Layers line). */
export const ID_SHAPE_TAG = 'ids:';

/** The shapes by name. */
export const ID_SHAPE_NAMES = ['case', 'accent', 'space', 'prefix'] as const;
export type IdShapeName = (typeof ID_SHAPE_NAMES)[number];

/** The length of the `prefix` shape's ids: past every cut of a key a real store or broker makes short of 200. */
const PREFIX_ID_CHARS = 200;

/** A composite id's path, {@link PREFIX_ID_CHARS} characters less the last: the `prefix` ids share it (4 x 45 + 19). */
const LONG_PREFIX = `${'eu-west-1/tenant-42/order-000017/line-000003/'.repeat(4)}shipment-0000000-00`;

/** Each shape's two ids, in code-unit order: distinct strings that a rule folding case, normalising Unicode, trimming or cutting makes one. */
const PAIRS: Readonly<Record<IdShapeName, readonly [string, string]>> = {
  case: ['Order-17', 'order-17'],
  accent: ['cafe\u0301-17', 'caf\u00e9-17'],
  space: ['order-17', 'order-17 '],
  prefix: [`${LONG_PREFIX}a`, `${LONG_PREFIX}b`],
};

/**
 * A pair of ids found by probing, not drawn: `collide:N:M` names `order-N` and `order-M`, two plain ids
 * a rule set's envelope gives one key or one envelope id (a key from a hash bucket of the id, a
 * checksum: id-probe.ts asks thousands of ids for a collision). The world takes them as any pair.
 */
const COLLIDE = /^collide:(\d{1,6}):(\d{1,6})$/;

/** The ids of a `collide:N:M` shape, or null when `text` is not one (or names one id twice). */
function collidingPair(text: string): readonly [string, string] | null {
  const m = COLLIDE.exec(text);
  if (m === null || Number(m[1]) === Number(m[2])) return null;
  return [`order-${Number(m[1])}`, `order-${Number(m[2])}`];
}

/** Whether `text` names a colliding pair of ids (`collide:N:M`), one the probe found rather than a drawn shape. */
export function isCollideShape(text: string): boolean {
  return collidingPair(text) !== null;
}

/** The shape of a colliding pair of ids `order-n` and `order-m`. */
export function collideShape(n: number, m: number): string {
  return `collide:${n}:${m}`;
}

/** Id shapes in one order: the named ones as {@link ID_SHAPE_NAMES} lists them, then colliding pairs in code-unit order, each once. */
export function orderedShapes(shapes: Iterable<string>): string[] {
  const all = new Set(shapes);
  const named: readonly string[] = ID_SHAPE_NAMES;
  return [...named.filter((s) => all.has(s)), ...[...all].filter((s) => !named.includes(s)).sort()];
}

/** Whether `text` names an id shape: one of {@link ID_SHAPE_NAMES}, or a colliding pair (`collide:N:M`). */
export function isIdShape(text: string): boolean {
  return (ID_SHAPE_NAMES as readonly string[]).includes(text) || collidingPair(text) !== null;
}

/** The two ids of `shape`, in the world's order (id 0, id 1). */
export function idPair(shape: string): readonly [string, string] {
  // Own keys only: a name like `constructor` is no shape.
  const pair = Object.hasOwn(PAIRS, shape) ? PAIRS[shape as IdShapeName] : collidingPair(shape);
  if (pair === null) throw new Error(`unknown id shape ${JSON.stringify(shape)}`);
  return pair;
}

/** The id number `i` (0 or 1) of a world of `shape`. */
export function shapedIdName(i: number, shape: string): string {
  const pair = idPair(shape);
  if (i >= pair.length) throw new Error(`an id shape names ${pair.length} ids, not ${i + 1}`);
  return pair[i];
}

/** The share of seeds with two ids and no ids named alike that draw a shape: one in eight of all with two ids (longIds takes one in four). */
const SHAPE_SHARE_BESIDE_LONG = 1 / 8 / (3 / 4);

/**
 * A seed's id shape (`WorldOptions.idShape`): one seed in eight of those with two ids, from the stream
 * `ids:shape`, one shape of {@link ID_SHAPE_NAMES}; undefined otherwise (one id, ids named alike, or not
 * drawn), so that every other seed keeps its options. `fixed` (the flag) gives every seed of two ids
 * without ids named alike that shape.
 */
export function idShapeDrawn(seed: number, ids: number, longIds: boolean, fixed?: string): string | undefined {
  if (ids < 2 || longIds) return undefined;
  if (fixed !== undefined) return isIdShape(fixed) ? fixed : undefined;
  const s = lightStream(seed, 'ids:shape');
  if (s.next() >= SHAPE_SHARE_BESIDE_LONG) return undefined;
  return ID_SHAPE_NAMES[Math.floor(s.next() * ID_SHAPE_NAMES.length)];
}

/** A shape in a few words, for the options line, a trace's world line and the summary. */
export function idShapeWords(shape: string): string {
  if (!isIdShape(shape)) return `shape ${JSON.stringify(shape)}`;
  const [x, y] = idPair(shape);
  if (!(ID_SHAPE_NAMES as readonly string[]).includes(shape)) return `${idText(x)} and ${idText(y)}, two ids the rule set's envelope makes one, in one cycle or once one is requeued (a key from a hash of the id, or without a separator before the epoch)`;
  const what = { case: 'differing only in case', accent: 'differing only in Unicode normalisation (NFC, NFD)', space: 'differing only by a trailing space', prefix: `of ${PREFIX_ID_CHARS} characters differing only in the last` }[shape as IdShapeName];
  // Two ids of 200 characters are named by their end: the summary and the options line stay readable.
  if (shape === 'prefix') return `ids "...${x.slice(-12)}" and "...${y.slice(-12)}" ${what}`;
  return `${idText(x)} and ${idText(y)}, ${what}`;
}

/** The shapes the flag takes, for help text and its error. */
export const ID_SHAPE_FLAG_VALUES = `${ID_SHAPE_NAMES.join(', ')} or collide:N:M (ids order-N and order-M)`;

/**
 * An id as everything that shows one prints it: as it is when it is plain (`a`, `Order-17`,
 * `eu-west-1.tenant-42.order-000017`: no message or trace of a world without a shape changes), quoted
 * with every character outside printable ASCII escaped otherwise (`"order-17 "`, `"cafe\u{301}-17"`
 * against `"caf\u{E9}-17"`): two ids a store would fold are told apart on the page as they are in the
 * world. A body's form (sim/body-text.ts), never cut short: a key of many characters is printed whole.
 */
export function idText(id: string): string {
  return quotedText(id);
}
