/**
 * Broken past a seed's run (sim/outbox/life-position.test.ts): a janitor that
 * also takes READY records past 5 attempts, not in flight, under
 * fail-closed's tombstone retention. The tombstone keeps the record READY
 * without its payload; an engine then drains it, and fail-closed's envelope
 * has no body to send. Only a record taken round its cycle past 5 attempts
 * (deep cycles, toward the threshold the probe sees) meets it, so the check
 * reports it from there, with the trace of the steps before it.
 */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'sweep-pending-tombstone',
  summary: 'fail-closed, but its sweeper also tombstones READY records past 5 attempts that are not in flight',
  sweepable: (record) => (record.status === 'DELIVERED' && typeof record.payload === 'string') || (record.status === 'READY' && record.attempts >= 5 && record.inFlight !== true),
});
