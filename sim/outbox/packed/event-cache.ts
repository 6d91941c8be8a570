/**
 * Event objects made once and shared, by a numeric code (kind, pid, a small
 * subscript), so that listing a state's enabled events allocates one array.
 */
import type { WorldEvent } from '../world.ts';

export class EventCache {
  private readonly events = new Map<number, WorldEvent>();

  /** The code of an event: a kind number, a pid and a subscript (an id's index, a state's index...). */
  static code(kind: number, pid: number, sub: number): number {
    return kind * 2 ** 24 + pid * 2 ** 8 + sub;
  }

  /** The event of `code`, or undefined before it is made. With {@link add}, the form for hot listings: `get`'s `make` is a closure allocated at every call. */
  find(code: number): WorldEvent | undefined {
    return this.events.get(code);
  }

  /** Keeps `e` as the event of `code` (which has none yet); returns it. */
  add(code: number, e: WorldEvent): WorldEvent {
    this.events.set(code, e);
    return e;
  }

  /** The event of `code`, made by `make` the first time. */
  get(code: number, make: () => WorldEvent): WorldEvent {
    let e = this.events.get(code);
    if (e === undefined) {
      e = make();
      this.events.set(code, e);
    }
    return e;
  }
}
