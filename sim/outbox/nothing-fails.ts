/**
 * A world where nothing can fail, and the property that judges it
 * (docs/properties.md, 'parked-only-on-failure'): no fault or operator
 * kind can fire (every broker answer but `accept` switched off, no crash,
 * corruption, operator action, forgetting broker, late landing, stall,
 * poison or upgrade), so every POST is stored and answered ok. There no
 * record may end PARKED: every park reason the rule API has names a
 * failure (a refusal, attempts or time spent on failures, an unknown
 * outcome), and none happened.
 *
 * Why: every other property accepts an honest park as settled, so a rule
 * set that parks before sending passed them all. A blind review's cap
 * checked before the send, off by one (`attempts + 1 >= cap`), never sent
 * the last attempt, and with an attempts limit of 1 never sent at all, on a
 * healthy broker; the default check was clean.
 */
import type { Property } from '../core/system.ts';
import type { WorldOptions } from './options.ts';
import type { World } from './world.ts';
import { idText } from './id-shape.ts';
import { bodyText } from '../body-text.ts';
import { violation } from './properties.ts';

/**
 * Whether no kind of a fault or an operator's action can fire in a world of
 * these options: no budget for crashes, corruptions or operator actions, no
 * older version, every weight but the healthy answer's (`healthy`) 0 (the broker's other answers
 * and the faults), and no setting on (the kinds a setting turns on are a
 * forgetting broker, late landings, a sweeper, poison, a clock's stalls: a
 * clock alone is left out too, on the safe side). Read off the options
 * alone, not the event table, which the broker's listing (events/broker.ts)
 * asks it from.
 */
export function nothingFails(options: WorldOptions, healthy: string): boolean {
  if (options.skew || options.crashesMax > 0 || options.corruptionsMax > 0 || options.operatorActionsMax > 0) return false;
  // Options without weights are a caller's question about one answer (swarm-coverage.ts asks which answers need a crash), no world.
  if (options.weights === undefined) return false;
  for (const name in options.weights) if (name !== healthy && options.weights[name] > 0) return false;
  const settings = options.settings;
  if (settings !== undefined) for (const name in settings) if ((settings[name] ?? 0) !== 0) return false;
  return true;
}

const known = new WeakMap<WorldOptions, boolean>();

/** {@link nothingFails}, once per world's options (the listing asks it at every POST of a world without crashes). */
export function nothingFailsIn(options: WorldOptions, healthy: string): boolean {
  let v = known.get(options);
  if (v === undefined) known.set(options, (v = nothingFails(options, healthy)));
  return v;
}

/** The weights of a world where nothing fails: every kind's weight 0 but the healthy answer's. */
export function healthyWeights(weights: Readonly<Record<string, number>>, healthy: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of Object.keys(weights)) out[name] = name === healthy ? weights[name] : 0;
  return out;
}

/** parked-only-on-failure: in a world where nothing fails ({@link nothingFails}), no record is PARKED. */
export const parkedOnlyOnFailure: Property<World> = {
  name: 'parked-only-on-failure',
  kind: 'always',
  reads: ['records'],
  description: 'in a world where nothing fails (every POST stored and answered ok, no crash, corruption or operator action), no record is PARKED: every park reason names a failure',
  check(w) {
    for (const id of Object.keys(w.records).sort()) {
      const slot = w.records[id];
      if (slot.kind !== 'record' || slot.record.status !== 'PARKED') continue;
      const body = slot.record.payload ?? '';
      return violation('parked-only-on-failure', id, body, 'record', `record ${idText(id)} is PARKED ${String(slot.record.reason ?? '')} for ${bodyText(body)} in a world where nothing failed: every POST was stored and answered ok`);
    }
    return null;
  },
};
