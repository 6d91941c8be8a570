/**
 * What the simulator's broker does with a POST it receives, and which
 * idempotency keys a broker deduping by key knows across ids
 * (model/broker.ts, `brokerAccept`): the key each id's holding came with,
 * for the ids it still remembers (under a dedupe window, an id it forgot,
 * dedupe-window.ts, is no longer remembered by its key either).
 */
import { brokerAccept, dedupesByKey, isDuplicate, type BrokerAcceptance, type Holding } from '../../../model/broker.ts';
import type { BrokerMode, Envelope } from '../../../model/types.ts';
import type { World } from '../world.ts';
import { dedupeMemory } from './dedupe-window.ts';
import { heldAfter } from './rekeyed.ts';

/** What the broker does with a POST it receives: its acceptance, the holding it leaves for the id (null: unchanged), and whether it stored a body it already held. */
export interface BrokerReceipt {
  acceptance: BrokerAcceptance;
  holding: Holding | null;
  duplicate: boolean;
}

/**
 * A POST of `envelope` received by the broker of `w` (an engine's answered
 * POST, engine-step.ts, or one landing late, land.ts): accepted by its mode
 * with the keys it knows across ids, its holding noted when the store is a
 * second effect (rekeyed.ts; `otherKey` there, for an engine's POST under
 * version skew).
 */
export function brokerReceives(mode: BrokerMode, w: World, envelope: Envelope, otherKey?: () => string | null): BrokerReceipt {
  const held = w.broker[envelope.id] ?? null;
  const acceptance = brokerAccept(mode, held, envelope, keyKnownElsewhere(mode, w, envelope.id, envelope.key));
  return { acceptance, holding: heldAfter(mode, w, held, acceptance, envelope, otherKey), duplicate: acceptance.stored && isDuplicate(held, envelope.body) };
}

/**
 * The tag of a step in which the broker received a POST and kept what it
 * held (a duplicate of the id, or a key it knows): nothing changes, so the
 * trace would otherwise show nothing of why the body is not there.
 */
export const DROPPED_TAG = 'broker:dropped';

/** The tags a received POST gives its step: stored, a duplicate effect, or dropped. */
export function receiptTags(received: BrokerReceipt, tags: string[]): void {
  if (received.acceptance.stored) tags.push('layer:stored');
  else tags.push(DROPPED_TAG);
  if (received.duplicate) tags.push('layer:duplicate');
}

/** Whether, under `mode`, the broker of `w` holds another id than `id` under `key` and remembers it. */
export function keyKnownElsewhere(mode: BrokerMode, w: World, id: string, key: string): boolean {
  if (!dedupesByKey(mode)) return false;
  const memory = dedupeMemory(w);
  const broker = w.broker;
  for (const other in broker) if (other !== id && broker[other].key === key && (memory === undefined || memory[other] !== undefined)) return true;
  return false;
}
