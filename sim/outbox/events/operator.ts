/**
 * A person's actions (subsystem `operator`), within the world's operator
 * budget. Not failures, but moves an engine must survive at any point, so
 * the world takes them like any event; the report lists them apart from the
 * faults.
 *
 * An action on a record runs the `requeue` decision of the rule set of the
 * tool that executes it: under version skew the old version's tool is
 * deployed beside the new one's until faults stop, so each action is offered
 * once per version (`version: 'old'` for the old one).
 */
import { readSlot } from '../../../model/record.ts';
import { isPending } from '../../../model/types.ts';
import { asWritten, schemaOf } from '../../../model/schema.ts';
import type { OperatorAction, RuleSet } from '../../../model/rules.ts';
import type { World, WorldEvent } from '../world.ts';
import { withChanges } from '../world-copy.ts';
import { sameCanonical } from '../../core/canonical.ts';
import { nowOf } from './clock.ts';
import { TIME_ORIGIN } from '../../../model/time.ts';
import { claimView, type WorldContext } from './context.ts';
import { stepText, eventKind, type EventKind } from './kind.ts';
import { idText } from '../id-shape.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    /** `version: 'old'`: run by the old version's tool (version skew); absent: the checked rule set's. */
    requeue: { id: string; reset: boolean; version?: 'old' };
    resubmit: { id: string; version?: 'old' };
    restore: { index: number };
  }
}

type Requeue = Extract<WorldEvent, { kind: 'requeue' }>;
type Resubmit = Extract<WorldEvent, { kind: 'resubmit' }>;
type Restore = Extract<WorldEvent, { kind: 'restore' }>;

/** No engine has this pid: the operator's view of a claim is never "mine". */
const OPERATOR_PID = -1;

/** The rule set of the tool that runs an operator action of `version`. */
function toolRules(ctx: WorldContext, version: 'old' | undefined): RuleSet {
  return version === 'old' && ctx.worldRules.oldRules ? ctx.worldRules.oldRules : ctx.worldRules.rules;
}

/** The versions whose tools are deployed: both while a version-skewed world is still deploying. */
function versions(w: World, ctx: WorldContext): ('old' | undefined)[] {
  return ctx.skew && !w.healing ? [undefined, 'old'] : [undefined];
}

/** ` (old rules)` for the old version's tool. */
const by = (version: 'old' | undefined): string => (version === 'old' ? ' (old rules)' : '');

/** Writes what the tool's `requeue` decision returns for the record of `id`. */
function runRequeue(w: World, ctx: WorldContext, id: string, reset: boolean, action: OperatorAction, version: 'old' | undefined): World {
  const slot = w.records[id];
  if (slot?.kind !== 'record') return w;
  // The operator's tool reads the record whatever its schema, a legacy one with its missing fields
  // filled in: given as stored, it lacked the resendEpoch a requeue adds to, and NaN was written back.
  const rules = toolRules(ctx, version);
  const read = readSlot(slot, Number.MAX_SAFE_INTEGER, rules.recordShape, schemaOf(rules));
  const given = read.kind === 'found' ? read.record : slot.record;
  const record = rules.requeue(given, reset, {
    id,
    action,
    claim: claimView(w, id, OPERATOR_PID, ctx.sessionClaims === true),
    who: { pid: null, rules: rules.name, schema: rules.schemaKnown },
    ...(read.kind === 'found' ? { stored: read.stored } : {}),
    now: TIME_ORIGIN + nowOf(w),
  });
  // Returned unchanged, the action is refused and nothing is written (docs/rules.md, 'Operator actions'): written back,
  // the record as read would store the defaults the read filled in for damaged fields, and erase what they said.
  if (sameCanonical(record, given)) return withChanges(w, { operatorActions: w.operatorActions + 1 });
  // Written by the tool's own serializer: fields its schema does not know are dropped if it says so.
  return withChanges(w, { records: { ...w.records, [id]: { kind: 'record', record: asWritten(schemaOf(rules), record) } }, operatorActions: w.operatorActions + 1 });
}

function requeueKind(reset: boolean): EventKind<Requeue> {
  const name = reset ? 'requeue-reset' : 'requeue';
  return eventKind({
    name,
    group: 'operator',
    tag: 'operator',
    range: 'id',
    event: 'requeue',
    owns: (e) => e.reset === reset,
    enabled: (w, ctx, { id }) => {
      if (id === null || w.operatorActions >= ctx.options.operatorActionsMax) return [];
      const slot = w.records[id];
      if (slot?.kind !== 'record' || slot.record.status !== 'PARKED') return [];
      // A loop into a literal, not `.map` (an array of another hidden class: see `enabled` in kind.ts).
      const out: Requeue[] = [];
      for (const version of versions(w, ctx)) out.push(version === undefined ? { kind: 'requeue', id, reset } : { kind: 'requeue', id, reset, version });
      return out;
    },
    reads: ['operatorActions', 'records', 'healing'],
    inWorld: (ctx) => !(ctx.options.operatorActionsMax <= 0),
    apply: (w, e, ctx, tags) => {
      tags.push(`fault:${name}`);
      return runRequeue(w, ctx, e.id, e.reset, 'requeue', e.version);
    },
    releasesPark: true,
    label: (e) => `operator requeue ${idText(e.id)}${e.reset ? ' (reset attempts)' : ''}${by(e.version)}`,
    counter: `fault:${name}`,
    draw: (e, v) => ({ from: 'Operator', to: 'Outbox', broken: false, text: stepText(v, `requeue ${idText(e.id)}${e.reset ? ' (reset attempts)' : ''}${by(e.version)}`) }),
    knob: null,
    doc: {
      example: `operator requeue a${reset ? ' (reset attempts)' : ''}`,
      enabled: "`a`'s record is an intact PARKED record; with `--old-rules`, before faults stop, also by the old version's tool (`(old rules)`)",
      does: reset
        ? "writes what the `requeue` decision of the tool's rule set returns (the checked one's, or the old one's), with attempts reset to 0; nothing where it returns the record unchanged (a refusal)"
        : "writes what the `requeue` decision of the tool's rule set returns (the checked one's, or the old one's), attempts kept; nothing where it returns the record unchanged (a refusal)",
      stands: reset ? 'a person retrying with a fresh attempt budget' : 'a person retrying a held item',
    },
  });
}

export const requeue = requeueKind(false);
export const requeueReset = requeueKind(true);

export const resubmit: EventKind<Resubmit> = eventKind({
  name: 'resubmit',
  group: 'operator',
  tag: 'operator',
  range: 'id',
  event: 'resubmit',
  enabled: (w, ctx, { id }) => {
    if (id === null || w.operatorActions >= ctx.options.operatorActionsMax) return [];
    const slot = w.records[id];
    if (slot?.kind !== 'record' || !isPending(slot.record.status)) return [];
    // A loop into a literal, not `.map` (as requeue's, above).
    const out: Resubmit[] = [];
    for (const version of versions(w, ctx)) out.push(version === undefined ? { kind: 'resubmit', id } : { kind: 'resubmit', id, version });
    return out;
  },
  reads: ['operatorActions', 'records', 'healing'],
  inWorld: (ctx) => !(ctx.options.operatorActionsMax <= 0),
  apply: (w, e, ctx, tags) => {
    tags.push('fault:resubmit');
    return runRequeue(w, ctx, e.id, false, 'resubmit', e.version);
  },
  label: (e) => `operator resubmit ${idText(e.id)}${by(e.version)}`,
  counter: 'fault:resubmit',
  draw: (e, v) => ({ from: 'Operator', to: 'Outbox', broken: false, text: stepText(v, `resubmit ${idText(e.id)}${by(e.version)}`) }),
  knob: null,
  doc: {
    example: 'operator resubmit a',
    enabled: "`a`'s record is an intact pending record (READY, or QUEUED where the rule set writes it), whether or not an engine holds its claim (an attempt may be in flight); with `--old-rules`, before faults stop, also by the old version's tool",
    does: "writes what the `requeue` decision of the tool's rule set returns for `action: 'resubmit'`, attempts kept; nothing where it returns the record unchanged (a refusal)",
    stands: "a person pressing \"send again\" on a pending item in an operator tool",
  },
});

export const restore: EventKind<Restore> = eventKind({
  name: 'restore',
  group: 'operator',
  tag: 'operator',
  range: 'world',
  event: 'restore',
  enabled: (w, ctx) => {
    if (w.operatorActions >= ctx.options.operatorActionsMax) return [];
    const out: Restore[] = [];
    w.quarantined.forEach((q, index) => {
      if (w.live[q.id] === undefined) out.push({ kind: 'restore', index });
    });
    return out;
  },
  reads: ['operatorActions', 'quarantined', 'live'],
  inWorld: (ctx) => !(ctx.options.operatorActionsMax <= 0),
  apply: (w, e, _ctx, tags) => {
    const q = w.quarantined[e.index];
    const quarantined = w.quarantined.filter((_, i) => i !== e.index);
    tags.push('fault:restore');
    return withChanges(w, {
      quarantined,
      live: { ...w.live, [q.id]: { id: q.id, body: q.body, generation: w.nextGeneration } },
      nextGeneration: w.nextGeneration + 1,
      operatorActions: w.operatorActions + 1,
    });
  },
  label: (e) => `operator restore quarantined #${e.index}`,
  counter: 'fault:restore',
  draw: (e, v) => ({ from: 'Operator', to: 'Producer', broken: false, text: stepText(v, `restore quarantined #${e.index} into results/`) }),
  knob: null,
  doc: {
    example: 'operator restore quarantined #0',
    enabled: 'a file is in `undelivered/` and its id has no live file',
    does: 'moves it back into `results/` as a new generation',
    stands: 'a person putting a quarantined result back for delivery',
  },
});
