/**
 * What a user of the outbox can observe: what is reported delivered
 * (archived files and DELIVERED records), what the broker holds, what is
 * parked and what is quarantined. `diff` compares these between rule sets.
 */
import { canonicalJson } from '../core/canonical.ts';
import type { World } from './world.ts';
import { bodyText } from '../body-text.ts';
import { idText } from './id-shape.ts';

/** The observable outcomes of a world. */
export interface Outcomes {
  reported: Record<string, string>;
  delivered: Record<string, string>;
  broker: Record<string, string>;
  parked: Record<string, string>;
  quarantined: string[];
}

export function outcomesOf(w: World): Outcomes {
  const delivered: Record<string, string> = {};
  const parked: Record<string, string> = {};
  for (const [id, slot] of Object.entries(w.records)) {
    if (slot.kind !== 'record') continue;
    if (slot.record.status === 'DELIVERED') delivered[idText(id)] = bodyText(slot.record.payload);
    if (slot.record.status === 'PARKED') parked[idText(id)] = `${bodyText(slot.record.payload)} (${slot.record.reason ?? '?'})`;
  }
  return {
    reported: Object.fromEntries(Object.entries(w.reported).map(([id, body]) => [idText(id), bodyText(body)])),
    delivered,
    broker: Object.fromEntries(Object.entries(w.broker).map(([id, h]) => [idText(id), bodyText(h.body)])),
    parked,
    quarantined: w.quarantined.map((q) => `${idText(q.id)}=${bodyText(q.body)} (${q.cause})`).sort(),
  };
}

/** The first observable difference between two worlds, in words, or null. */
export function outcomeDifference(a: World, b: World): string | null {
  const oa = outcomesOf(a);
  const ob = outcomesOf(b);
  for (const k of ['reported', 'delivered', 'broker', 'parked', 'quarantined'] as const) {
    const x = canonicalJson(oa[k]);
    const y = canonicalJson(ob[k]);
    if (x !== y) return `${k}: ${x} against ${y}`;
  }
  return null;
}
