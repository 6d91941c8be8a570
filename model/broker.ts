/**
 * The remote broker: at most one body per result id. How it answers a second
 * POST for an id it already holds is its dedupe mode (docs/protocol.md, 'Broker').
 * Pure: the world owns the broker's holdings and applies what this returns.
 * A broker of mode `key` dedupes keys across ids (`brokerAccept`'s `keyKnown`).
 */
import { match } from 'ts-pattern';
import type { BrokerMode, Envelope, Reply } from './types.ts';

/** What the broker holds for one id: the body and the idempotency key it came with. */
export interface Holding {
  body: string;
  key: string;
  /**
   * Mode `log` only: every body the broker accepted for the id, in order,
   * duplicates included (a consumer that is not idempotent sees each).
   */
  log?: string[];
  /**
   * Not the broker's: a note the world keeps for its properties (the
   * simulator's retries-deduped, docs/properties.md). Set on a holding that a
   * broker deduping by key stored over the same body under another key,
   * where nothing explains a second effect. No broker answer reads it.
   */
  rekeyed?: true;
}

/** What one POST did at the broker, and the reply it would send back. */
export interface BrokerAcceptance {
  /** The holding after the POST (unchanged when dropped or refused). */
  holding: Holding | null;
  /** True when this POST's body is now what the broker holds. */
  stored: boolean;
  reply: Reply;
}

/** How a broker of one mode answers a second POST for an id it holds (`incoming`: the POST's body and key). */
type SecondPost = (held: Holding, incoming: Holding) => BrokerAcceptance;

/** The answer of a mode to a second POST (ts-pattern's match picks it by the mode alone). */
function secondPostOf(mode: BrokerMode): SecondPost {
  // Exhaustive: a new mode is a type error here until its answer to a second POST is decided.
  return match(mode)
    .returnType<SecondPost>()
    .with('id-ok', () => (held) => ({ holding: held, stored: false, reply: 'ok' }))
    .with('id-409', () => (held) => ({ holding: held, stored: false, reply: 'conflict-409' }))
    .with('key', () => (held, incoming) => (held.key === incoming.key ? { holding: held, stored: false, reply: 'ok' } : { holding: incoming, stored: true, reply: 'ok' }))
    .with('none', () => (_held, incoming) => ({ holding: incoming, stored: true, reply: 'ok' }))
    .with('log', () => (held, incoming) => ({ holding: { ...incoming, log: [...(held.log ?? []), incoming.body] }, stored: true, reply: 'ok' }))
    .exhaustive();
}

/**
 * Whether a broker of `mode` dedupes by idempotency key. Such a broker
 * remembers keys across ids, so its answer to a POST reads every id's
 * holding, not only the POST's id's: what keys the simulator's broker steps
 * (sim/outbox/events/broker-keys.ts, the packed explorer's transitions) and
 * what the retries-deduped property judges ask this, not the mode's name.
 */
export function dedupesByKey(mode: BrokerMode): boolean {
  return mode === 'key';
}

/** Each mode's answer, matched once: the broker answers at every POST of every run. */
const secondPosts = new Map<BrokerMode, SecondPost>();

/**
 * The broker receives an envelope it is willing to process. `keyKnown`: the
 * envelope's idempotency key is one the broker holds another id's body
 * under. A broker that dedupes by key remembers keys across ids, as SQS
 * FIFO's deduplication id or Stripe's Idempotency-Key do (per queue, per
 * account), not per result id: it drops such a POST and answers success,
 * so a key that two ids can share (one without the id in it, or a hash of
 * the body) loses the second id's body.
 */
export function brokerAccept(mode: BrokerMode, held: Holding | null, envelope: Envelope, keyKnown = false): BrokerAcceptance {
  if (keyKnown && dedupesByKey(mode)) return { holding: held, stored: false, reply: 'ok' };
  const incoming: Holding = { body: envelope.body, key: envelope.key };
  // The first POST for an id is stored in every mode; a log starts its list of every accepted POST with it (the latest is what it holds).
  if (held === null) return { holding: mode === 'log' ? { ...incoming, log: [envelope.body] } : incoming, stored: true, reply: 'ok' };
  let answer = secondPosts.get(mode);
  if (answer === undefined) {
    answer = secondPostOf(mode);
    secondPosts.set(mode, answer);
  }
  return answer(held, incoming);
}

/**
 * Every mode `--broker` takes. `log` (no dedupe, every accepted POST kept, so
 * duplicate effects can be counted) is opt-in: the check swarm draws from
 * {@link SWARM_BROKER_MODES}, so every seed keeps the world it had.
 */
export const BROKER_MODES: readonly BrokerMode[] = ['id-ok', 'id-409', 'key', 'none', 'log'];

/** The modes the check swarm draws per seed. */
export const SWARM_BROKER_MODES: readonly BrokerMode[] = ['id-ok', 'id-409', 'key', 'none'];

/** Whether a POST stored `body` for an id whose broker already had received it: a duplicate effect. */
export function isDuplicate(held: Holding | null, body: string): boolean {
  if (held === null) return false;
  return held.log !== undefined ? held.log.includes(body) : held.body === body;
}
