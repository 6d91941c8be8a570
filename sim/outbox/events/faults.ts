/**
 * Storage and process faults (subsystem `fault`): a crash, and four kinds of
 * damage to the store (field-corrupt, a fifth, has its own file). A crash
 * needs one left in the crash budget; the damages share the corruption
 * budget. Each is switched on or off per world by its weight
 * (`WorldOptions.weights`, by name, drawn from the fault's own stream).
 */
import { canonicalJson } from '../../core/canonical.ts';
import { fieldsAfterLegacy, holdsPostLegacyField, schemaOf } from '../../../model/schema.ts';
import type { LifecycleState } from '../../../model/lifecycle.ts';
import type { World, WorldEvent } from '../world.ts';
import { copyWorld } from '../world-copy.ts';
import { payloadAltered } from '../../../model/record.ts';
import type { WorldContext, WorldRules } from './context.ts';
import { settingOn, stepText, weightOf, eventKind, type EventKind, type Knob, type Setting, type WorldField } from './kind.ts';
import type { WorldOptions } from '../options.ts';
import { idText } from '../id-shape.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    crash: { pid: number; at: LifecycleState };
    'tear-record': { id: string };
    'tear-claim': { id: string };
    'newer-schema': { id: string };
    'legacy-record': { id: string };
  }
}

type Crash = Extract<WorldEvent, { kind: 'crash' }>;
type Damage = Extract<WorldEvent, { kind: 'tear-record' | 'tear-claim' | 'newer-schema' | 'legacy-record' }>;

/** A fault's knob: its weight by its name, drawn from `fault:<name>`; `v1Index`: its place in trace format 1's `faultWeights`. */
function knobOf(name: string, v1Index: number): Knob {
  return { stream: `fault:${name}`, weight: weightOf(name), draw: 'on', v1: { list: 'faultWeights', index: v1Index } };
}

const crashKnob = knobOf('crash', 0);

/**
 * Whether a claim is bound to its holder's session (a row lock taken by
 * `SELECT ... FOR UPDATE SKIP LOCKED`, an advisory lock, a lock key that
 * expires with its holder's connection): released when the holder dies, so
 * a dead engine's claim reads as free to every decision that sees claims
 * (`claimView` in events/context.ts). 0: a claim row that stays until
 * released or taken over ("held by a dead engine").
 */
const sessionClaims: Setting = {
  name: 'sessionClaims',
  flag: '--session-claims',
  help: {
    check: "with 1, a claim is a lock bound to its holder's session (a row lock, an advisory lock): a dead engine's claim reads as free; 0: it stays held by the dead engine (default: drawn per seed)",
    explore: "with 1, a claim is a lock bound to its holder's session (a row lock, an advisory lock): a dead engine's claim reads as free (default 0: it stays held by the dead engine)",
  },
  min: 0,
  max: 1,
  off: 0,
  stream: 'fault:session-claims',
  // On in one seed in four: relays that claim by row lock (SKIP LOCKED) are common, and a rule that reads
  // "no lock" as "nothing in flight" is wrong exactly there.
  draw: (next) => (next() < 0.75 ? 0 : 1),
  words: (v) => `sessionClaims=${v}`,
  banner: (v) => (v === 0 ? "claims kept by a dead holder" : "claims released when their holder dies"),
};

/** The setting's name, for a world that sets it (small-worlds.ts). */
export const SESSION_CLAIMS = sessionClaims.name;

/** Whether a world of these options releases a claim when its holder dies ({@link sessionClaims}). */
export function sessionClaimsIn(options: WorldOptions): boolean {
  return settingOn(options, sessionClaims);
}

export const crash: EventKind<Crash> = eventKind({
  name: 'crash',
  processes: 'ends',
  group: 'fault',
  tag: 'fault',
  range: 'engine',
  event: 'crash',
  enabled: (w, ctx, { engine }) =>
    engine !== null && w.crashes < ctx.options.crashesMax && crashKnob.weight(ctx.options) > 0 ? [{ kind: 'crash', pid: engine.pid, at: engine.state }] : [],
  reads: ['crashes'],
  // Crashes are counted from 0: with no budget, or the knob off, none is ever made.
  inWorld: (ctx) => ctx.options.crashesMax > 0 && crashKnob.weight(ctx.options) > 0,
  weight: (_w, ctx) => crashKnob.weight(ctx.options),
  apply: (w, e, _ctx, tags) => {
    tags.push('fault:crash', `crash@${e.at}`);
    const next = copyWorld(w);
    next.engines = w.engines.filter((p) => p.pid !== e.pid);
    next.crashes = w.crashes + 1;
    return next;
  },
  label: (e) => `crash e${e.pid} (${e.at})`,
  replayKey: (e) => `${e.kind}:${e.pid}`,
  counter: 'fault:crash',
  draw: (e, v) => ({
    from: `e${e.pid}`,
    to: `e${e.pid}`,
    broken: true,
    text: stepText(v, `crash (at ${e.at})`),
    note: { over: `e${e.pid}`, text: `fault: e${e.pid} crashes, its memory is lost` },
  }),
  hidden: 'the engine crashes, its memory is lost',
  knob: crashKnob,
  doc: {
    example: 'crash e1 (claiming)',
    enabled: 'crashes left; one event per live engine, in whatever state it is',
    does: 'the process disappears with its memory; its claim, and everything durable, stays (with `--session-claims 1` its claim reads as free from then on)',
    stands: 'a worker killed between two durable writes (out of memory, a deploy, a lost node)',
  },
  setting: sessionClaims,
});

/** A damage fault on id `a`: enabled when `when` holds, within the corruption budget and while switched on. */
function damage(
  name: Damage['kind'],
  v1Index: number,
  /** The world's fields `when` reads (the kind's `reads`, with the budget). */
  whenReads: readonly WorldField[],
  when: (w: World, id: string, ctx: WorldContext) => boolean,
  change: (w: World, e: Damage, ctx: WorldContext) => Partial<World> | null,
  doc: EventKind<Damage>['doc'],
): EventKind<Damage> {
  const knob = knobOf(name, v1Index);
  const on = (w: World, ctx: WorldContext) => w.corruptions < ctx.options.corruptionsMax && knob.weight(ctx.options) > 0;
  // Made once: a run counts its tags in a map, and a string built at every step is hashed at every count.
  const tag = `fault:${name}`;
  return eventKind({
    name,
    group: 'fault',
    tag: 'fault',
    range: 'id',
    event: name,
    enabled: (w, ctx, { id }) => (id !== null && on(w, ctx) && when(w, id, ctx) ? [{ kind: name, id }] : []),
    reads: ['corruptions', ...whenReads],
    // Corruptions are counted from 0: with no budget, or the knob off, none is ever made.
    inWorld: (ctx) => ctx.options.corruptionsMax > 0 && knob.weight(ctx.options) > 0,
    weight: (_w, ctx) => knob.weight(ctx.options),
    apply: (w, e, ctx, tags) => {
      const changed = change(w, e, ctx);
      if (changed === null) return w;
      tags.push(tag);
      const next = Object.assign(copyWorld(w), changed);
      next.corruptions = w.corruptions + 1;
      return next;
    },
    label: (e) => `${e.kind} ${idText(e.id)}`,
    counter: `fault:${name}`,
    draw: (_e, v) => ({ from: 'Outbox', to: 'Outbox', broken: true, text: stepText(v, v.label), note: { over: 'Outbox', text: `fault: ${name}` } }),
    hidden: name,
    knob,
    doc,
  });
}

const intact = (w: World, id: string) => w.records[id]?.kind === 'record';

export const tearRecord = damage(
  'tear-record',
  1,
  ['records'],
  intact,
  (w, e) => {
    const slot = w.records[e.id];
    const bytes = slot?.kind === 'record' ? canonicalJson(slot.record).slice(0, 20) : '';
    return { records: { ...w.records, [e.id]: { kind: 'torn', bytes } } };
  },
  {
    example: 'tear-record a',
    enabled: '`a` has an intact record',
    does: 'the record slot becomes the first 20 bytes of the record, which do not parse',
    stands: 'a partial write, a torn page, bit rot',
  },
);

/**
 * The newest record schema the world's rule sets know (the checked one's and
 * the old one's `schemaKnown`): `newer-schema` writes the one after it. It
 * wrote schema 2 whatever the rule sets knew, and fired only on records of
 * schema 1 or less, so a rule set of schema 2 never met a newer record.
 */
export function newestSchema(worldRules: WorldRules): number {
  return Math.max(worldRules.rules.schemaKnown, worldRules.oldRules?.schemaKnown ?? 0);
}

export const newerSchema = damage(
  'newer-schema',
  3,
  ['records'],
  (w, id, ctx) => {
    const slot = w.records[id];
    return slot?.kind === 'record' && slot.record.schema <= newestSchema(ctx.worldRules);
  },
  (w, e, ctx) => {
    const slot = w.records[e.id];
    if (slot?.kind !== 'record') return null;
    // A newer engine rewrote the record: a schema no engine of this world knows, and a field they do not know.
    const record = { ...slot.record, schema: newestSchema(ctx.worldRules) + 1, deliveryClass: 'priority' };
    return { records: { ...w.records, [e.id]: { kind: 'record', record } } };
  },
  {
    example: 'newer-schema a',
    enabled: "`a` has an intact record of a schema the world's rule sets know (at most the newest `schemaKnown`: 1 for fail-closed)",
    does: 'rewrites it as the next schema (2 for fail-closed) with a field `deliveryClass` older engines do not know',
    stands: 'a newer engine version (a canary, a half-finished roll-out) rewrote the record in its own format',
  },
);

export const legacyRecord = damage(
  'legacy-record',
  4,
  ['records'],
  (w, id, ctx) => {
    const slot = w.records[id];
    // Not over a payload altered in the store: dropping its digest too would leave nothing that tells.
    return slot?.kind === 'record' && holdsPostLegacyField(slot.record, schemaOf(ctx.worldRules.rules)) && !payloadAltered(slot.record);
  },
  (w, e, ctx) => {
    const slot = w.records[e.id];
    if (slot?.kind !== 'record') return null;
    // A record as an engine of the legacy schema wrote it: every declared field introduced since is missing.
    const drop = new Set(fieldsAfterLegacy(schemaOf(ctx.worldRules.rules)));
    const legacy = Object.fromEntries(Object.entries(slot.record).filter(([k]) => !drop.has(k)));
    return { records: { ...w.records, [e.id]: { kind: 'record', record: legacy as typeof slot.record } } };
  },
  {
    example: 'legacy-record a',
    enabled: '`a` has an intact record that holds a field the checked rule set declares introduced after the legacy schema (0), and whose payload is the one its digest names (not over a payload altered in the store: with the digest gone too, nothing would tell)',
    does: 'removes every such field: for a rule set without a schema declaration, `attempts`, `resendEpoch` and `digest`',
    stands: 'a record written by an older deployment, before those fields existed, still in the store',
  },
);

export const tearClaim = damage(
  'tear-claim',
  2,
  ['claims'],
  (w, id) => w.claims[id]?.kind === 'held',
  (w, e) => ({ claims: { ...w.claims, [e.id]: { kind: 'torn' } } }),
  {
    example: 'tear-claim a',
    enabled: "`a`'s claim is held",
    does: 'the claim becomes unreadable',
    stands: 'the lease file damaged the same way; its owner may still be alive',
  },
);
