/**
 * The items `id:body` the world's lists hold (`published`, `parkedGone`, `poisoned`), made and split in
 * one place: a long body's item is made once (docs/protocol.md, 'Body shapes'), and an item splits at its
 * first colon (an id holds none; a body may).
 */
import { LongMemo } from './body-shape.ts';

/** Bodies at least this long have their `id:body` items made once (see {@link idBody}). */
const ITEM_CHARS = 1024;
/** The most characters of long items kept at once. */
const ITEMS_CHARS_BUDGET = 64 * 1024 * 1024;
/** Long bodies' items, by body and id; and each such item's body. */
const longItems = new LongMemo<Map<string, string>>(ITEMS_CHARS_BUDGET, (body) => body.length);
const itemBodies = new LongMemo<string>(ITEMS_CHARS_BUDGET, (item) => item.length);

/**
 * The item `id:body` the world's lists hold (`published`, `parkedGone`, `poisoned`). A long body's item
 * is made once and handed out again (docs/protocol.md, 'Body shapes'): a large body's item built at every
 * record write, then compared in full with the one in the list, made a world of 1 MiB bodies thirty times
 * slower; one shared string compares by identity.
 */
export function idBody(id: string, body: string): string {
  if (body.length < ITEM_CHARS) return `${id}:${body}`;
  let byId = longItems.get(body);
  if (byId === undefined) {
    byId = new Map();
    longItems.set(body, byId);
  }
  let item = byId.get(id);
  if (item === undefined) {
    item = `${id}:${body}`;
    byId.set(id, item);
    itemBodies.set(item, body);
  }
  return item;
}

/** The id and the body of an item {@link idBody} made (an id holds no colon; a body may). */
export function splitIdBody(item: string): [id: string, body: string] {
  const body = item.length > ITEM_CHARS ? itemBodies.get(item) : undefined;
  if (body !== undefined) return [item.slice(0, item.length - body.length - 1), body];
  const colon = item.indexOf(':');
  return [item.slice(0, colon), item.slice(colon + 1)];
}
