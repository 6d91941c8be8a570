/**
 * What one statechart step read of the record it was told (its event's
 * `read`), field by field. An engine's step is handed its record as a
 * `RecordRead` (`model/types.ts`); most steps look at a few of its fields
 * (fail-closed's `dispose` the kind, status, payload and reason; `admit`
 * the kind and status), not at the counts and epochs that differ between
 * records an operator has requeued. The read is given to the step as a
 * proxy that notes each field it reads and the value it saw, so that the
 * program the step gives can be kept under those values (`read-codes.ts`,
 * `transitions.ts`) instead of under the whole record.
 *
 * Paths: a field of the read (`kind`, `legacy`, `metadataOnly`, `schema`),
 * `record` (the record is there: its fields are watched in turn), a field of
 * the record (`record.status`), and `in:` a name (`'reason' in record`, as a
 * pattern matcher asks). Anything else (enumerating the keys, as a spread
 * does; `stored`, which holds the raw record; a field whose value is an
 * object; a write) is beyond: the program is then kept under the whole
 * record. Why the values are enough: the step is deterministic, so a run on
 * another record whose read agrees at every path read makes the same reads,
 * sees the same values and takes the same path to the same result.
 *
 * What a proxy cannot see is an identity comparison; what it must never do
 * is outlive the step (a proxy in the next world would be interned and
 * read by later derivations). The step's output is searched for the
 * proxies (`leaks`); one that kept a proxy is run again on the plain read.
 */
import type { RecordRead } from '../../../model/types.ts';
import { LongMemo } from '../body-shape.ts';

/** Strings at least this long are coded by a number, not their text ({@link encodeValue}). */
const LONG_TEXT_CHARS = 1024;

/** The most characters of long strings kept numbered at once (a few dozen megabyte bodies). */
const LONG_TEXT_BUDGET = 64 * 1024 * 1024;

/**
 * Long strings read (a large body), each numbered the first time it is seen. A number is never given
 * twice, so a string dropped over the budget and seen again gets a new one: two records that read alike
 * then get two codes (a program derived twice), never one code for two strings.
 */
const longTexts = new LongMemo<number>(LONG_TEXT_BUDGET, (text) => text.length);
let longTextsNumbered = 0;

/**
 * The code of one value read: its type and text (objects other than the record are never coded:
 * reading one is beyond). A long string is coded by its number instead ({@link longTexts}): a megabyte
 * body copied into every code, and compared at every derivation, cost a tenth of a millisecond per state
 * of a search (explore of 1 MiB bodies: three times the time of one-letter ones).
 */
export function encodeValue(v: unknown): string {
  if (v !== null && typeof v === 'object') return 'object';
  if (typeof v !== 'string') return `${typeof v}:${String(v)}`;
  if (v.length < LONG_TEXT_CHARS) return `s${v}`;
  let n = longTexts.get(v);
  if (n === undefined) longTexts.set(v, (n = longTextsNumbered++));
  return `L${n}`;
}

/** The value at `path` of a (plain) read, encoded as {@link encodeValue} does; what a watched step saw there. */
export function valueAt(read: RecordRead, path: string): string {
  const dot = path.indexOf('.');
  const owner: object | undefined = dot < 0 ? read : (read as { record?: object }).record;
  const name = dot < 0 ? path : path.slice(dot + 1);
  if (owner === undefined || owner === null || typeof owner !== 'object') return encodeValue(undefined);
  if (name.startsWith('in:')) return encodeValue(Reflect.has(owner, name.slice(3)));
  return encodeValue(Reflect.get(owner, name));
}

/** A property name a path can hold unambiguously (a symbol, or a name with a dot or the `in:` mark, is beyond). */
function plainName(p: string | symbol): p is string {
  return typeof p === 'string' && !p.includes('.') && !p.startsWith('in:');
}

/**
 * Watches one step at a time: `start`, `watch` the read, run the step,
 * `close`, then the paths and flags. Its proxy handlers are made once.
 */
export class ReadWatch {
  /** The paths read, in the order first read, and the value each had then ({@link encodeValue}). */
  readonly paths: string[] = [];
  readonly values: string[] = [];
  /** The step accessed the read at all. */
  touched = false;
  /** The step read something no path names (or wrote, enumerated): its program depends on the whole record. */
  beyond = false;
  /** The read was accessed after the step returned. */
  escaped = false;
  private closed = true;
  /** The proxies made since {@link start}: the read's and its record's, a handful (a list, not a WeakSet made per step). */
  private readonly made: object[] = [];
  /** The record's stand-in, made once per step (a record read twice is one object). */
  private recordTarget: object | null = null;
  private recordProxy: object | null = null;
  private readonly readHandler = this.handler('');
  private readonly recordHandler = this.handler('record.');

  start(): void {
    this.paths.length = 0;
    this.values.length = 0;
    this.touched = false;
    this.beyond = false;
    this.escaped = false;
    this.closed = false;
    this.made.length = 0;
    this.recordTarget = null;
    this.recordProxy = null;
  }

  /** A stand-in for `read` that notes each access. */
  watch(read: RecordRead): RecordRead {
    return this.proxy(read, this.readHandler);
  }

  /** The step is over: any access from now on is an escape. */
  close(): void {
    this.closed = true;
  }

  /**
   * Whether `out` (a step's output: plain data, arrays and objects) holds a
   * proxy made since {@link start}. Only plain values are entered, never a
   * proxy, so the search notes no read.
   */
  leaks(out: unknown): boolean {
    const seen = new Set<object>();
    const stack: unknown[] = [out];
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v === 'function') return true;
      if (v === null || typeof v !== 'object' || seen.has(v)) continue;
      if (this.made.includes(v)) return true;
      seen.add(v);
      if (Array.isArray(v)) for (const x of v) stack.push(x);
      else for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
    }
    return false;
  }

  private proxy<T extends object>(target: T, handler: ProxyHandler<object>): T {
    const p = new Proxy<T>(target, handler as ProxyHandler<T>);
    this.made.push(p);
    return p;
  }

  /** Notes a path read and its value (the first read of a path: a later one sees the same immutable value). */
  private note(path: string, value: string): void {
    if (!this.paths.includes(path)) {
      this.paths.push(path);
      this.values.push(value);
    }
  }

  /** Notes an access; true when it is to be watched further (neither after the step nor beyond). */
  private access(): boolean {
    if (this.closed) {
      this.escaped = true;
      return false;
    }
    this.touched = true;
    return !this.beyond;
  }

  private other(): void {
    if (this.access()) this.beyond = true;
  }

  /** Traps of a watched read (`prefix` '') or record ('record.'): a field's read is a path, anything else is beyond. */
  private handler(prefix: string): ProxyHandler<object> {
    return {
      get: (target, p, receiver) => {
        const v: unknown = Reflect.get(target, p, receiver);
        if (!this.access()) return v;
        if (!plainName(p)) {
          this.beyond = true;
          return v;
        }
        if (prefix === '' && p === 'record' && v !== null && typeof v === 'object') {
          this.note('record', encodeValue(v));
          if (this.recordTarget !== v) {
            this.recordTarget = v;
            this.recordProxy = this.proxy(v, this.recordHandler);
          }
          return this.recordProxy;
        }
        // An object (the stored fields, a field of an object value) is not watched inside: the whole record keys the program.
        if (typeof v === 'function' || (v !== null && typeof v === 'object')) this.beyond = true;
        else this.note(prefix + p, encodeValue(v));
        return v;
      },
      has: (target, p) => {
        const v = Reflect.has(target, p);
        if (this.access()) {
          if (plainName(p)) this.note(`${prefix}in:${p}`, encodeValue(v));
          else this.beyond = true;
        }
        return v;
      },
      ownKeys: (target) => {
        this.other();
        return Reflect.ownKeys(target);
      },
      getOwnPropertyDescriptor: (target, p) => {
        this.other();
        return Reflect.getOwnPropertyDescriptor(target, p);
      },
      getPrototypeOf: (target) => {
        this.other();
        return Reflect.getPrototypeOf(target);
      },
      set: (target, p, v, receiver) => {
        this.other();
        return Reflect.set(target, p, v, receiver);
      },
      defineProperty: (target, p, d) => {
        this.other();
        return Reflect.defineProperty(target, p, d);
      },
      deleteProperty: (target, p) => {
        this.other();
        return Reflect.deleteProperty(target, p);
      },
      setPrototypeOf: (target, proto) => {
        this.other();
        return Reflect.setPrototypeOf(target, proto);
      },
      preventExtensions: (target) => {
        this.other();
        return Reflect.preventExtensions(target);
      },
      isExtensible: (target) => {
        this.other();
        return Reflect.isExtensible(target);
      },
    };
  }
}
