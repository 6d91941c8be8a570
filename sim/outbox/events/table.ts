/**
 * The event table: every kind of event the outbox world takes, in order, and
 * its subsystems with their weights. The world's `choices`, `step` and
 * `label`, the report's kinds and crash-point matrix, the trace renderers'
 * words and docs/faults.md are all read off this list; adding a kind is one
 * entry in its group's file, listed here.
 */
import type { WorldContext } from './context.ts';
import { alterPayload } from './alter-payload.ts';
import { answers } from './broker.ts';
import { longWait, stall, tick } from './clock.ts';
import { forget } from './dedupe-window.ts';
import { drain, scan, step } from './engine.ts';
import { crash, legacyRecord, newerSchema, tearClaim, tearRecord } from './faults.ts';
import { fieldCorrupt } from './field-corrupt.ts';
import { land, timeoutInTransit } from './land.ts';
import type { AnyKind, Apply, EventTag, GroupName, Setting, Variant } from './kind.ts';
import { requeue, requeueReset, restore, resubmit } from './operator.ts';
import { restart, upgrade } from './process.ts';
import { poison } from './poison.ts';
import { produce } from './producer.ts';
import { sweep } from './retention.ts';
import type { WorldEvent } from '../world.ts';

/** A subsystem: its weight against the others in random runs, and how its events are drawn. */
export interface Group {
  name: GroupName;
  weight: (ctx: WorldContext) => number;
  /** Events drawn by their kinds' weights (else uniformly). */
  weighted: boolean;
  /** Still enabled once faults stop (the liveness phase). */
  whileHealing: boolean;
  /** Its heading and opening words in docs/faults.md. */
  title: string;
  intro: string;
}

/** The subsystems, in the order of a world's choice groups. */
export const GROUPS: readonly Group[] = [
  {
    name: 'engine',
    weight: () => 10,
    weighted: false,
    whileHealing: true,
    title: 'Engine steps',
    intro: 'Normal operation; they drive the lifecycle statechart of [protocol.md](protocol.md#delivery-core).',
  },
  {
    name: 'broker',
    weight: () => 5,
    weighted: true,
    whileHealing: true,
    title: 'Broker answers',
    intro:
      'When an engine is in `posting`, one event per answer the broker may give is enabled. Each answer says whether the broker received the POST (and then processed it by its dedupe mode, see [protocol.md](protocol.md#broker)) and which reply the engine sees. Once faults stop, only the steady answer (`healAnswer`) is enabled.',
  },
  { name: 'process', weight: () => 2, weighted: false, whileHealing: true, title: 'Processes', intro: 'Engine processes coming and going; a crash is a fault (below).' },
  { name: 'producer', weight: () => 2, weighted: false, whileHealing: false, title: 'Producer', intro: 'The worker that writes result files into `results/`.' },
  {
    name: 'operator',
    weight: () => 1,
    weighted: false,
    whileHealing: false,
    title: 'Operator',
    intro:
      "Within the world's operator budget (`operatorActionsMax`). Operator actions are not failures, but they are moves an engine must survive at any point, so the world takes them like any event; the report lists them apart from the faults.",
  },
  {
    name: 'fault',
    weight: (ctx) => ctx.options.faultGroupWeight,
    weighted: true,
    whileHealing: false,
    title: 'Storage and process faults',
    intro:
      "The fault group's weight against the others is drawn per seed. A crash needs one left in the crash budget (`crashesMax`); the others but the stall share the corruption budget (`corruptionsMax`); a stall needs a world with leases, and the clock's horizon bounds it.",
  },
];

/** Every kind, grouped by subsystem, in enumeration order within each group (see `Range`). */
export const EVENT_KINDS: readonly AnyKind[] = [
  scan,
  drain,
  step,
  ...answers,
  timeoutInTransit,
  forget,
  land,
  restart,
  upgrade,
  tick,
  longWait,
  produce,
  requeue,
  requeueReset,
  resubmit,
  restore,
  sweep,
  crash,
  tearRecord,
  newerSchema,
  legacyRecord,
  tearClaim,
  fieldCorrupt,
  stall,
  alterPayload,
  poison,
] as readonly AnyKind[];

const byEvent = new Map<string, AnyKind[]>();
for (const k of EVENT_KINDS) byEvent.set(k.event, [...(byEvent.get(k.event) ?? []), k]);

/** The table entry of a world event, or undefined for an event no entry produces (one read from a trace). */
export function findKind(e: WorldEvent): AnyKind | undefined {
  const candidates = byEvent.get(e.kind);
  if (candidates === undefined) return undefined;
  if (candidates.length === 1) return candidates[0];
  for (const c of candidates) if (c.owns !== undefined && c.owns(e)) return c;
  return undefined;
}

/** The table entry of a world event (a plain loop: every step asks). */
export function kindOf(e: WorldEvent): AnyKind {
  const k = findKind(e);
  if (k === undefined) throw new Error(`no event kind for ${JSON.stringify(e)}`);
  return k;
}

/**
 * Each kind's `apply` as the world runs it: wrapped by every kind that
 * declares it changes this one's steps (`wraps`), in table order.
 */
const applies = new Map<AnyKind, Apply>();
for (const k of EVENT_KINDS) {
  let apply: Apply = (w, e, ctx, tags) => k.apply(w, e, ctx, tags);
  for (const by of EVENT_KINDS) if (by.wraps !== undefined && by.wraps.of(k)) apply = by.wraps.apply(apply);
  applies.set(k, apply);
}

/** Applies an event by its kind (with the wrappers of other kinds). */
export function applyOf(k: AnyKind): Apply {
  const apply = applies.get(k);
  if (apply === undefined) throw new Error(`kind ${k.name} is not in the event table`);
  return apply;
}

/** The apply of each world event kind only one entry produces (most): every step asks, and one look-up by the event's kind answers. */
const applyByEvent = new Map<string, Apply>();
for (const [event, kinds] of byEvent) if (kinds.length === 1) applyByEvent.set(event, applyOf(kinds[0]));

/** `applyOf(kindOf(e))`, in one look-up when one entry produces events of `e`'s kind. */
export function applyOfEvent(e: WorldEvent): Apply {
  return applyByEvent.get(e.kind) ?? applyOf(kindOf(e));
}

/** The world slots the table's kinds own (`slots`). */
export const OWNED_SLOTS: readonly string[] = EVENT_KINDS.flatMap((k) => k.slots ?? []);

/** The world settings the table's kinds declare (check's and explore's flags, the swarm's draws, the options line). */
export const SETTINGS: readonly Setting[] = EVENT_KINDS.flatMap((k) => (k.setting === undefined ? [] : [k.setting]));

/** The world event kinds the table produces (a trace's event is the outbox's when its kind is one of these). */
export const WORLD_EVENT_KINDS: ReadonlySet<string> = new Set(byEvent.keys());

/** A short human label for an event (one line of a trace). */
export function labelOf(e: WorldEvent): string {
  return kindOf(e).label(e);
}

/** A kind as the report counts it: an entry with its own tag, or a variant of one. */
export interface CountedKind {
  name: string;
  group: GroupName;
  tag: EventTag;
  counter: string;
  hidden?: string;
  needsOldRules: boolean;
}

/** Every kind a report counts, in table order (engine steps have no tag of their own and are left out). */
export function countedKinds(): CountedKind[] {
  const out: CountedKind[] = [];
  const add = (k: AnyKind | Variant, group: GroupName, needsOldRules: boolean) => {
    if (k.counter === null) return;
    out.push({ name: k.name, group, tag: k.tag, counter: k.counter, ...(k.hidden !== undefined ? { hidden: k.hidden } : {}), needsOldRules });
  };
  for (const k of EVENT_KINDS) {
    add(k, k.group, k.needsOldRules === true);
    for (const v of k.variants ?? []) add(v, k.group, k.needsOldRules === true);
  }
  return out;
}
