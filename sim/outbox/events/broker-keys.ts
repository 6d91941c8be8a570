/**
 * Which idempotency keys a broker deduping by key knows across ids
 * (model/broker.ts, `brokerAccept`): the key each id's holding came with,
 * for the ids it still remembers (under a dedupe window, an id it forgot,
 * dedupe-window.ts, is no longer remembered by its key either).
 */
import { dedupesByKey } from '../../../model/broker.ts';
import type { BrokerMode } from '../../../model/types.ts';
import type { World } from '../world.ts';
import { dedupeMemory } from './dedupe-window.ts';

/** Whether, under `mode`, the broker of `w` holds another id than `id` under `key` and remembers it. */
export function keyKnownElsewhere(mode: BrokerMode, w: World, id: string, key: string): boolean {
  if (!dedupesByKey(mode)) return false;
  const memory = dedupeMemory(w);
  const broker = w.broker;
  for (const other in broker) if (other !== id && broker[other].key === key && (memory === undefined || memory[other] !== undefined)) return true;
  return false;
}
