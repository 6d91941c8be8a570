/**
 * The note behind the retries-deduped property (docs/properties.md): under
 * `--broker key`, a broker that dedupes by idempotency key, a retry of a POST
 * must carry the key of the attempt it retries, so that the broker drops it
 * if the first one was stored. A POST that the broker stores over the same
 * body for the same id under another key is a second effect the key was
 * meant to prevent, unless something explains it:
 * - the broker forgot the id (a dedupe window, dedupe-window.ts: the POST is
 *   then taken as a first one, and is not a duplicate here);
 * - an operator acted (a requeue or a resubmit starts a new epoch, whose key
 *   is new by design; in-flight and in-transit POSTs of the old epoch may
 *   land after it). Any operator action anywhere in the world excuses it:
 *   the world keeps no history of which id was requeued when, and a note
 *   that could be wrong would make a clean rule set fail.
 * The note lives on the holding itself, so a world that never meets such a
 * store has no state more than before.
 */
import { dedupesByKey, type BrokerAcceptance, type Holding } from '../../../model/broker.ts';
import type { BrokerMode, Envelope } from '../../../model/types.ts';
import type { World } from '../world.ts';

/** The holding a POST leaves at the broker (`acceptance.holding`), noted `rekeyed` when its store is a second effect nothing explains. */
export function heldAfter(mode: BrokerMode, w: World, held: Holding | null, acceptance: BrokerAcceptance, envelope: Envelope): Holding | null {
  const holding = acceptance.holding;
  if (!dedupesByKey(mode) || !acceptance.stored || holding === null || held === null) return holding;
  if (held.body !== envelope.body || held.key === envelope.key || w.operatorActions > 0) return holding;
  return { ...holding, rekeyed: true };
}
