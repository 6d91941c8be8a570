/**
 * Hash-consing of immutable plain-data values: equal values (by canonical
 * JSON) get the same small integer, and the integer gives back one shared
 * value. Id 0 stands for `undefined` (an absent slot), so a packed state's
 * zero means "nothing here".
 */
import { TupleTable } from '../../core/tuple-table.ts';
import { emptyList } from '../world-copy.ts';

/**
 * Canonical numbers of plain-data values: two values get the same number
 * exactly when their canonical JSON (`core/canonical.ts`: keys sorted,
 * undefined fields dropped) is equal. A value's number is made from its
 * composite parts' numbers, not their text, so a new value built of known parts (the
 * object system's step mostly rebuilds one level: a process around an
 * unchanged file) costs a short key, not its whole encoding. Memoised per
 * object: only for values that are never mutated (system states are not).
 *
 * A key is a tuple of integers (no string is built: this runs at every
 * derivation of the packed explorer): an object is its tag, then per defined
 * field in sorted order the field's code and the part's number; an array
 * its tag and its parts' numbers. A number is even for a primitive (0:
 * what JSON writes as null) and odd for a composite, so no part reads two ways.
 */
export class Canon {
  private readonly objects = new WeakMap<object, number>();
  private readonly composites = new TupleTable();
  private readonly primitives = new Map<unknown, number>();
  private readonly fieldCodes = new Map<string, number>();
  /** Field lists by an object's own keys in their order (a trie): objects of one shape are sorted once. */
  private readonly shapes: ShapeNode = { firstName: null, first: null, next: new Map(), fields: null };
  /** Keys under construction, nested values' after their parent's (a stack: `top` is where the next part goes). */
  private stack = new Int32Array(256);
  private top = 0;

  /** The canonical number of `value`. */
  of(value: unknown): number {
    if (value === null || typeof value !== 'object') return this.primitive(value);
    const known = this.objects.get(value);
    if (known !== undefined) return known;
    const base = this.top;
    if (Array.isArray(value)) {
      this.put(ARRAY);
      for (let i = 0; i < value.length; i++) this.put(this.of(value[i]));
    } else {
      const obj = value as Record<string, unknown>;
      const fields = this.fieldsOf(Object.keys(obj));
      this.put(OBJECT);
      for (let i = 0; i < fields.length; i++) {
        const v = obj[fields[i].name];
        if (v === undefined) continue;
        this.put(fields[i].code);
        this.put(this.of(v));
      }
    }
    const length = this.top - base;
    const key = base === 0 ? this.stack : this.stack.subarray(base, this.top);
    let n = this.composites.find(key, length);
    if (n < 0) n = this.composites.add(key, length);
    this.top = base;
    const number = 2 * n + 1;
    this.objects.set(value, number);
    return number;
  }

  private put(v: number): void {
    if (this.top === this.stack.length) {
      const grown = new Int32Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    this.stack[this.top++] = v;
  }

  /** A primitive's number: equal where canonical JSON's text is (undefined, a function and a non-finite number read as null, as there). */
  private primitive(v: unknown): number {
    const t = typeof v;
    if (t === 'number' ? !Number.isFinite(v) : t !== 'string' && t !== 'boolean') return 0;
    // A Map tells 1 from '1' and true from 'true', and takes -0 for 0, as JSON's text does.
    let n = this.primitives.get(v);
    if (n === undefined) {
      n = 2 * (this.primitives.size + 1);
      this.primitives.set(v, n);
    }
    return n;
  }

  private fieldsOf(own: readonly string[]): readonly Field[] {
    let node = this.shapes;
    for (let i = 0; i < own.length; i++) {
      const name = own[i];
      // Most nodes have one child (objects of one kind are built field by field in one order): a compare, not a look-up.
      if (node.firstName === name) {
        node = node.first as ShapeNode;
        continue;
      }
      let next = node.next.get(name);
      if (next === undefined) {
        next = { firstName: null, first: null, next: new Map(), fields: null };
        if (node.firstName === null) {
          node.firstName = name;
          node.first = next;
        } else node.next.set(name, next);
      }
      node = next;
    }
    // An object without fields gets an empty list of the class the others have (see arrays.ts).
    if (node.fields === null) node.fields = own.length === 0 ? emptyList<Field>() : [...own].sort().map((name) => ({ name, code: this.fieldCode(name) }));
    return node.fields;
  }

  private fieldCode(name: string): number {
    let c = this.fieldCodes.get(name);
    if (c === undefined) this.fieldCodes.set(name, (c = this.fieldCodes.size));
    return c;
  }
}

/** Tags that open a key (field codes and numbers are never negative). */
const OBJECT = -1;
const ARRAY = -2;

interface Field {
  name: string;
  code: number;
}

interface ShapeNode {
  /** The first child met, by its field's name: kept beside the map, which holds the others. */
  firstName: string | null;
  first: ShapeNode | null;
  next: Map<string, ShapeNode>;
  fields: readonly Field[] | null;
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
