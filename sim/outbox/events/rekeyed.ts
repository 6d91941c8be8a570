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
 *   that could be wrong would make a clean rule set fail. Under version
 *   skew one case is not excused (`otherKey`): the key held is the one the
 *   other deployed version gives the very record this POST was built from,
 *   so the two versions sent one cycle under two keys (a key format changed
 *   for requeued cycles only, which no check before an operator's action
 *   could see).
 * The note lives on the holding itself, so a world that never meets such a
 * store has no state more than before.
 */
import { dedupesByKey, type BrokerAcceptance, type Holding } from '../../../model/broker.ts';
import type { RuleSet } from '../../../model/rules.ts';
import type { BrokerMode, Envelope, RecordSlot } from '../../../model/types.ts';
import type { World } from '../world.ts';
import { readAs } from './context.ts';

/**
 * The holding a POST leaves at the broker (`acceptance.holding`), noted
 * `rekeyed` when its store is a second effect nothing explains. `otherKey`,
 * asked only when an operator's action would excuse the store: the key the
 * other deployed version gives the record this POST was built from, or null
 * (no skew, a POST landing late, a record that moved on since).
 */
export function heldAfter(mode: BrokerMode, w: World, held: Holding | null, acceptance: BrokerAcceptance, envelope: Envelope, otherKey?: () => string | null): Holding | null {
  const holding = acceptance.holding;
  if (!dedupesByKey(mode) || !acceptance.stored || holding === null || held === null) return holding;
  if (held.body !== envelope.body || held.key === envelope.key) return holding;
  if (w.operatorActions > 0 && (otherKey === undefined || otherKey() !== held.key)) return holding;
  return { ...holding, rekeyed: true };
}

/**
 * The key the version an engine does not run gives the record its POST of
 * `envelope` was built from, or null: no skew, the record not readable by
 * both versions, or moved on since (its own rules no longer give the key
 * sent: an operator's new cycle). A decision that throws here answers null:
 * it is asked again, and judged, where its own engines ask it.
 */
export function otherVersionKey(own: RuleSet, other: RuleSet | undefined, slot: RecordSlot | undefined, envelope: Envelope): string | null {
  if (other === undefined || other === own) return null;
  const mine = readAs(own, slot);
  const theirs = readAs(other, slot);
  if (mine.kind !== 'found' || theirs.kind !== 'found') return null;
  try {
    if (own.envelope(envelope.id, mine.record).key !== envelope.key) return null;
    return other.envelope(envelope.id, theirs.record).key;
  } catch {
    return null;
  }
}
