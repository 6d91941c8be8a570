/**
 * Hash-consing of immutable plain-data values: equal values (by canonical
 * JSON) get the same small integer, and the integer gives back one shared
 * value. Id 0 stands for `undefined` (an absent slot), so a packed state's
 * zero means "nothing here".
 */
import { canonicalKey } from '../../core/canonical.ts';

export class Interner<T> {
  private readonly ids = new Map<string, number>();
  readonly values: (T | undefined)[] = [undefined];

  /** The id of a value (0 for undefined); interns it when new. */
  id(value: T | undefined): number {
    if (value === undefined) return 0;
    const key = canonicalKey(value);
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
