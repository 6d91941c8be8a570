/**
 * Reading the options of traces written before the weights were kept by
 * kind name: such a trace keeps them by position, `answerWeights` and
 * `faultWeights`, and each setting a kind declares (the dedupe window) at the
 * top level. Each kind's table entry says where it sat (`Knob.v1`), so the
 * old order is read off the table, not kept as a list here.
 */
import { EVENT_KINDS, SETTINGS } from './events/table.ts';
import type { WorldOptions } from './options.ts';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Options in today's shape: old-shaped ones converted, today's (or anything else) returned as they are. */
export function currentOptions(options: unknown): unknown {
  if (!isRecord(options) || options.weights !== undefined) return options;
  const { answerWeights, faultWeights, ...rest } = options;
  const lists: Record<string, unknown> = { answerWeights, faultWeights };
  const weights: Record<string, number> = {};
  for (const k of EVENT_KINDS) {
    const at = k.knob?.v1;
    if (at === undefined) continue;
    const list = lists[at.list];
    const value = Array.isArray(list) ? list[at.index] : undefined;
    if (typeof value === 'number') weights[k.name] = value;
  }
  const settings: Record<string, number> = {};
  for (const s of SETTINGS) {
    const value = rest[s.name];
    if (typeof value === 'number') settings[s.name] = value;
    delete rest[s.name];
  }
  return { ...rest, weights, ...(Object.keys(settings).length > 0 ? { settings } : {}) } satisfies Partial<WorldOptions> & Record<string, unknown>;
}
