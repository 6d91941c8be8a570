/**
 * What one step reads of the slots of its key, watched. A broker answer
 * reads of the record only whether it is PARKED (parked-stays-parked); a
 * producer reads of the live file only whether it is there; an operator's
 * requeue or a storage fault touches no slot of its id but the record and
 * the claim. So their programs hold for every state whose slots project the
 * same (a record's kind and status; present or absent; anything, for a
 * slot not touched), and are kept under the projection (`transitions.ts`)
 * instead of under the slots, whose counts and epochs grow with each
 * operator action. Whether a step read more is not assumed: each watched
 * slot is given to the step as a proxy that notes every access (a slot not
 * to be touched: the world's whole map of it, so that an absent slot is
 * watched too), and a step that read anything beyond the projection keeps
 * its program under the whole slots, as every step did before.
 *
 * Why that is exact: the step is deterministic, so a run from another state
 * that agrees on everything the first run read makes the same reads, sees
 * the same values and takes the same path to the same result. What a proxy
 * cannot see is an identity comparison (`slot === other`); the steps watched
 * compare a slot only with itself (unchanged or not), and the verify-mode
 * tests (`small-worlds-verify.test.ts`, `packed.test.ts`) hold every step of
 * the suite's worlds to the object system's.
 */
import type { RecordSlot } from '../../../model/types.ts';
import { sparseInts } from './arrays.ts';

/**
 * Watches the reads of one derivation at a time: `reset`, `watch` the
 * slots, run the step, `close`, then read the flags. One per transitions
 * table, its proxy handlers made once (a derivation makes only the proxies).
 */
export class RecordReads {
  /** The step read something besides the slot's kind and its record's status (or enumerated, wrote, probed the slot). */
  beyond = false;
  /** A slot was read after `close`: it escaped into the next world (which must never hold a proxy). */
  escaped = false;
  private closed = false;
  /** The stand-in of each watched slot's record, made once per derivation (a record read twice is the same object). */
  private readonly records = new Map<object, object>();
  private readonly recordHandler = this.handler<object>((p) => p === 'status');
  private readonly unreadHandler = this.handler<object>(() => false);
  private readonly slotHandler: ProxyHandler<RecordSlot> = {
    ...this.handler<RecordSlot>(() => false),
    get: (target, p, receiver) => {
      this.note(p === 'kind' || p === 'record');
      if (p !== 'record' || target.kind !== 'record') return Reflect.get(target, p, receiver) as unknown;
      let record = this.records.get(target.record);
      if (record === undefined) this.records.set(target.record, (record = new Proxy(target.record, this.recordHandler)));
      return record;
    },
  };

  /** Starts watching a new derivation. */
  reset(): void {
    this.beyond = false;
    this.escaped = false;
    this.closed = false;
    this.records.clear();
  }

  /** A stand-in for `slot` that notes each access (its reads give the slot's own values). */
  watch(slot: RecordSlot): RecordSlot {
    return new Proxy<RecordSlot>(slot, this.slotHandler);
  }

  /** A stand-in for `value` of which any access is noted as beyond (the step may see only whether it is there; of a map, not even that). */
  watchUnread<T extends object>(value: T): T {
    return new Proxy<T>(value, this.unreadHandler as ProxyHandler<T>);
  }

  /** The step is over: any access from now on is an escape. */
  close(): void {
    this.closed = true;
  }

  private note(within: boolean): void {
    if (this.closed) this.escaped = true;
    else if (!within) this.beyond = true;
  }

  /** Traps for every kind of access: a read of a property `within` the projection is allowed, anything else is noted. */
  private handler<T extends object>(within: (p: string | symbol) => boolean): ProxyHandler<T> {
    return {
      get: (target, p, receiver) => {
        this.note(within(p));
        return Reflect.get(target, p, receiver) as unknown;
      },
      has: (target, p) => {
        this.note(false);
        return Reflect.has(target, p);
      },
      ownKeys: (target) => {
        this.note(false);
        return Reflect.ownKeys(target);
      },
      getOwnPropertyDescriptor: (target, p) => {
        this.note(false);
        return Reflect.getOwnPropertyDescriptor(target, p);
      },
      getPrototypeOf: (target) => {
        this.note(false);
        return Reflect.getPrototypeOf(target);
      },
      set: (target, p, v, receiver) => {
        this.note(false);
        return Reflect.set(target, p, v, receiver);
      },
      defineProperty: (target, p, d) => {
        this.note(false);
        return Reflect.defineProperty(target, p, d);
      },
      deleteProperty: (target, p) => {
        this.note(false);
        return Reflect.deleteProperty(target, p);
      },
      setPrototypeOf: (target, proto) => {
        this.note(false);
        return Reflect.setPrototypeOf(target, proto);
      },
      preventExtensions: (target) => {
        this.note(false);
        return Reflect.preventExtensions(target);
      },
      isExtensible: (target) => {
        this.note(false);
        return Reflect.isExtensible(target);
      },
    };
  }
}

/**
 * Codes of the projection a watched step may read: 0 no record, 1 torn, and
 * one per distinct status of an intact record (its type and text; a status
 * that is an object, which only a corruption makes, gets a code of its own
 * per record, so it never shares).
 */
export class RecordProjection {
  private readonly byRecord = sparseInts();
  private readonly byStatus = new Map<string, number>();

  constructor(private readonly value: (recordId: number) => RecordSlot | undefined) {}

  /** The projection code of the interned record `recordId`. */
  of(recordId: number): number {
    let c = this.byRecord[recordId];
    if (c === undefined) this.byRecord[recordId] = c = this.compute(recordId);
    return c;
  }

  private compute(recordId: number): number {
    const slot = this.value(recordId);
    if (slot === undefined) return 0;
    if (slot.kind === 'torn') return 1;
    const status: unknown = slot.record.status;
    const text = status !== null && typeof status === 'object' ? `#${recordId}` : `${typeof status}:${String(status)}`;
    let c = this.byStatus.get(text);
    if (c === undefined) this.byStatus.set(text, (c = this.byStatus.size + 2));
    return c;
  }
}
