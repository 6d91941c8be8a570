/**
 * Hash-consing of immutable plain-data values: equal values (by canonical
 * JSON) get the same small integer, and the integer gives back one shared
 * value. Id 0 stands for `undefined` (an absent slot), so a packed state's
 * zero means "nothing here".
 */

/**
 * Canonical numbers of plain-data values: two values get the same number
 * exactly when their canonical JSON (`core/canonical.ts`: keys sorted,
 * undefined fields dropped) is equal. A value's number is made from its
 * composite parts' numbers, not their text, so a new value built of known parts (the
 * object system's step mostly rebuilds one level: a process around an
 * unchanged file) costs a short key, not its whole encoding. Memoised per
 * object: only for values that are never mutated (system states are not).
 */
export class Canon {
  private readonly objects = new WeakMap<object, number>();
  private readonly keys = new Map<string, number>();
  /** Field names sorted, each with its `"name":`, by the names in an object's own order: objects of one shape are sorted once. */
  private readonly shapes = new Map<string, readonly (readonly [string, string])[]>();

  /** The canonical number of `value`. */
  of(value: unknown): number {
    if (value === null || typeof value !== 'object') return this.ofKey(primitiveText(value));
    const known = this.objects.get(value);
    if (known !== undefined) return known;
    // A part is its JSON text when a primitive (never starting with `#`), else `#` and its number:
    // the key reads back one way only, as canonical JSON does.
    let key: string;
    if (Array.isArray(value)) {
      key = '[';
      for (let i = 0; i < value.length; i++) key += `${this.part(value[i])},`;
    } else {
      const obj = value as Record<string, unknown>;
      const own = Object.keys(obj);
      const shape = JSON.stringify(own);
      let fields = this.shapes.get(shape);
      if (fields === undefined) this.shapes.set(shape, (fields = own.sort().map((name) => [name, `${JSON.stringify(name)}:`] as const)));
      key = '{';
      for (let i = 0; i < fields.length; i++) {
        const v = obj[fields[i][0]];
        if (v !== undefined) key += `${fields[i][1]}${this.part(v)},`;
      }
    }
    const n = this.ofKey(key);
    this.objects.set(value, n);
    return n;
  }

  /** A part of a composite's key (see {@link of}). */
  private part(v: unknown): string {
    return v === null || typeof v !== 'object' ? primitiveText(v) : `#${this.of(v)}`;
  }

  private ofKey(key: string): number {
    let n = this.keys.get(key);
    if (n === undefined) {
      n = this.keys.size;
      this.keys.set(key, n);
    }
    return n;
  }
}

/** A primitive's canonical JSON (undefined, a function and a non-finite number read as `null`, as there). */
function primitiveText(v: unknown): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  return JSON.stringify(v) ?? 'null';
}

export class Interner<T> {
  private readonly ids = new Map<number, number>();
  readonly values: (T | undefined)[] = [undefined];

  /** `canon`: the canonical numbers it keys values by (one shared by the tables of a world costs each part once). */
  constructor(private readonly canon: Canon = new Canon()) {}

  /** The id of a value (0 for undefined); interns it when new. */
  id(value: T | undefined): number {
    if (value === undefined) return 0;
    const key = this.canon.of(value);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(key, id);
    }
    return id;
  }

  /** The value of an id (undefined for 0). */
  value(id: number): T | undefined {
    return this.values[id];
  }

  get size(): number {
    return this.values.length - 1;
  }
}
