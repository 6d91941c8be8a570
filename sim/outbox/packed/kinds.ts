/**
 * Which kinds of the event table the packed explorer lists by hand, for
 * speed (`engine-events.ts`, `world-events.ts`); `table-agreement.test.ts`
 * holds each to its table entry. The broker's answers are listed by going
 * over the table's answer entries, so every answer is here by construction;
 * the other kinds are specialised one by one. A world that enables a kind
 * not listed here is {@link Unrepresentable}: it is searched on the object
 * system, which takes every kind from the table, so a new kind is searched
 * correctly, if slower, before anyone specialises it here.
 */
import { EVENT_KINDS } from '../events/table.ts';
import { stableIdsIn } from '../events/process.ts';
import type { AnyKind } from '../events/kind.ts';
import type { WorldOptions } from '../options.ts';
import { Unrepresentable } from './layout.ts';

/** The table's broker answers (events `answer`), in table order: an engine in `posting` lists them in this order. */
export const ANSWER_KINDS: readonly AnyKind[] = EVENT_KINDS.filter((k) => k.group === 'broker' && k.event === 'answer');

/** The kinds specialised here. */
export const PACKED_KINDS: ReadonlySet<string> = new Set([
  'scan',
  'drain',
  'step',
  ...ANSWER_KINDS.map((k) => k.name),
  'timeout-in-transit',
  'forget',
  'land',
  'restart',
  'upgrade',
  'tick',
  'long-wait',
  'produce',
  'requeue',
  'requeue-reset',
  'resubmit',
  'restore',
  'sweep',
  'crash',
  'tear-record',
  'newer-schema',
  'legacy-record',
  'tear-claim',
  'field-corrupt',
  'stall',
  'alter-payload',
  'poison',
]);

/** Whether a kind is on in a world (its knob's weight; a kind without a knob always is). */
export function kindOn(options: WorldOptions, name: string): boolean {
  const k = EVENT_KINDS.find((x) => x.name === name);
  return k !== undefined && (k.knob === null || k.knob.weight(options) > 0);
}

/**
 * The furthest tick a stall's event code holds (world-events.ts: the code of
 * its kind, pid and state, plus the tick times 2^29, exact below 2^53).
 */
const STALL_TICK_MAX = 2 ** 23;

/** Past this a packed state's clock slot (a 32-bit integer) would wrap. */
const CLOCK_BITS_MAX = 2 ** 31 - 1;

/** Throws {@link Unrepresentable} when the world enables a kind not specialised here, a clock past what its codes hold, or stable identities. */
export function requirePackedKinds(options: WorldOptions): void {
  const clockMax = (options.settings?.ticks ?? 0) + (options.settings?.lease ?? 0);
  if (clockMax >= STALL_TICK_MAX) throw new Unrepresentable(`the packed explorer codes a stall's tick below ${STALL_TICK_MAX}, and this world's clock goes to ${clockMax}`);
  // A long wait past the horizon: a packed state holds the clock in 32 bits.
  const waited = (options.settings?.ticks ?? 0) + (options.settings?.jump ?? 0);
  if (waited >= CLOCK_BITS_MAX) throw new Unrepresentable(`the packed explorer holds the clock in 32 bits, and this world's long waits take it to ${waited}`);
  // Its restarts and upgrades take the next pid, and its programs name an engine's claim as another's (pid-renaming.ts).
  if (stableIdsIn(options)) throw new Unrepresentable('the packed explorer starts engines with fresh pids, and this world restarts them under old ones (--stable-ids)');
  for (const k of EVENT_KINDS) {
    if (!PACKED_KINDS.has(k.name) && (k.knob === null || k.knob.weight(options) > 0)) {
      throw new Unrepresentable(`the packed explorer does not list the events of kind ${k.name}, which this world enables`);
    }
  }
}

/** Whether the packed explorer can hold a world of these options, as far as its kinds, clock and pids go ({@link requirePackedKinds}). */
export function packedKindsHold(options: WorldOptions): boolean {
  try {
    requirePackedKinds(options);
    return true;
  } catch (err) {
    if (err instanceof Unrepresentable) return false;
    throw err;
  }
}
