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
