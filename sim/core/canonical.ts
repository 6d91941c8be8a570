/**
 * Canonical JSON: object keys sorted, so that equal plain-data states encode
 * to equal strings whatever order their fields were written in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

const memo = new WeakMap<object, string>();

/**
 * {@link canonicalJson} memoised per object: states share unchanged parts
 * with their predecessors, so a state's key is mostly cached pieces. Only for
 * values that are never mutated once encoded (system states are immutable).
 */
export function canonicalKey(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const cached = memo.get(value);
  if (cached !== undefined) return cached;
  let out: string;
  if (Array.isArray(value)) {
    out = `[${value.map(canonicalKey).join(',')}]`;
  } else {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    out = `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalKey(obj[k])}`).join(',')}}`;
  }
  memo.set(value, out);
  return out;
}

/** {@link plainSame}'s answer when the values hold something JSON writes in a way not compared here. */
const UNSURE = 2;

/** Defined keys of a plain object (canonical JSON leaves out a key whose value is undefined). */
function definedKeys(o: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(o)) if (o[k] !== undefined) out.push(k);
  return out;
}

/** 1 when `a` and `b` have the same canonical JSON, 0 when not, {@link UNSURE} when this does not tell. */
function plainSame(a: unknown, b: unknown, depth: number): 0 | 1 | typeof UNSURE {
  const ta = typeof a;
  const tb = typeof b;
  // A string, a boolean or a finite number writes as itself, and only as itself.
  const simpleA = ta === 'string' || ta === 'boolean' || (ta === 'number' && Number.isFinite(a));
  const simpleB = tb === 'string' || tb === 'boolean' || (tb === 'number' && Number.isFinite(b));
  if (simpleA && simpleB) return a === b ? 1 : 0;
  if (ta !== 'object' || tb !== 'object' || depth > 32) return UNSURE;
  if (a === b) return 1;
  if (a === null || b === null) return 0;
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return 0;
  if (arrayA) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return 0;
    for (let i = 0; i < x.length; i++) {
      const r = plainSame(x[i], y[i], depth + 1);
      if (r !== 1) return r;
    }
    return 1;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = definedKeys(x);
  if (keys.length !== definedKeys(y).length) return 0;
  for (const k of keys) {
    if (y[k] === undefined) return 0;
    const r = plainSame(x[k], y[k], depth + 1);
    if (r !== 1) return r;
  }
  return 1;
}

/**
 * Whether two values have the same {@link canonicalJson}, compared in place
 * for plain data (strings, booleans, finite numbers, null, arrays, objects)
 * and by their encodings otherwise: a replay matches each recorded event
 * among the enabled ones, and encoding every one of them was a third of
 * re-running a long trace.
 */
export function sameCanonical(a: unknown, b: unknown): boolean {
  const r = plainSame(a, b, 0);
  return r === UNSURE ? canonicalJson(a) === canonicalJson(b) : r === 1;
}
