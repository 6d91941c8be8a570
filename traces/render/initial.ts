/**
 * The world a trace starts from. Steps record only changes, so every state a
 * renderer shows is rebuilt from this world by applying them in order.
 */
import { failClosed } from '../../model/catalog/index.ts';
import { outboxSystem } from '../../sim/outbox/outbox-system.ts';
import type { WorldOptions } from '../../sim/outbox/options.ts';
import type { TraceHeader } from '../../sim/trace-format.ts';

function isOutboxOptions(v: unknown): v is WorldOptions {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.engines === 'number' && typeof o.ids === 'number' && typeof o.attemptsMax === 'number';
}

/**
 * The initial state of the system a trace was recorded from: the outbox
 * system's initial world for its options, `{}` for any other system.
 */
export function initialWorldOf(header: TraceHeader): Record<string, unknown> {
  if (header.model !== 'outbox' || !isOutboxOptions(header.options)) return {};
  // The initial world does not depend on the rules, only on whether an old rule
  // set runs beside (then every other engine starts on the old version).
  const rules = header.oldRules === null ? { rules: failClosed } : { rules: failClosed, oldRules: failClosed };
  return { ...outboxSystem(header.options, rules).initial() };
}
