/**
 * The remote broker: at most one body per result id. How it answers a second
 * POST for an id it already holds is its dedupe mode (docs/protocol.md, 'Broker').
 * Pure: the world owns the broker's holdings and applies what this returns.
 */
import type { BrokerMode, Envelope, Reply } from './types.ts';

/** What the broker holds for one id: the body and the idempotency key it came with. */
export interface Holding {
  body: string;
  key: string;
}

/** What one POST did at the broker, and the reply it would send back. */
export interface BrokerAcceptance {
  /** The holding after the POST (unchanged when dropped or refused). */
  holding: Holding | null;
  /** True when this POST's body is now what the broker holds. */
  stored: boolean;
  reply: Reply;
}

/** The broker receives an envelope it is willing to process. */
export function brokerAccept(mode: BrokerMode, held: Holding | null, envelope: Envelope): BrokerAcceptance {
  const incoming: Holding = { body: envelope.body, key: envelope.key };
  if (held === null) return { holding: incoming, stored: true, reply: 'ok' };
  switch (mode) {
    case 'id-ok':
      return { holding: held, stored: false, reply: 'ok' };
    case 'id-409':
      return { holding: held, stored: false, reply: 'conflict-409' };
    case 'key':
      return held.key === envelope.key
        ? { holding: held, stored: false, reply: 'ok' }
        : { holding: incoming, stored: true, reply: 'ok' };
    case 'none':
      return { holding: incoming, stored: true, reply: 'ok' };
  }
}

export const BROKER_MODES: readonly BrokerMode[] = ['id-ok', 'id-409', 'key', 'none'];
