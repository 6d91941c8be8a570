/**
 * The engine's own steps (subsystem `engine`): normal operation, driving the
 * lifecycle statechart (docs/protocol.md, 'Delivery core'). Their durable
 * writes are the crash-point matrix's rows, together with the POST
 * (broker.ts).
 */
import { LIFECYCLE_STATES, type LifecycleState } from '../../../model/lifecycle.ts';
import type { EngineProc, WorldEvent } from '../world.ts';
import { selects, selectsByRecordAlone } from '../../../model/rules.ts';
import { isPending } from '../../../model/types.ts';
import { nowOf } from './clock.ts';
import { TIME_ORIGIN } from '../../../model/time.ts';
import { claimView, readFor, rulesOf, whoOf } from './context.ts';
import { stepEngine, type Observe } from './engine-step.ts';
import { stepText, eventKind, type EventKind } from './kind.ts';
import { idText } from '../id-shape.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    scan: { pid: number; id: string };
    drain: { pid: number; id: string };
    /** `at`: the lifecycle state the step leaves. */
    step: { pid: number; at: LifecycleState };
  }
}

type Scan = Extract<WorldEvent, { kind: 'scan' }>;
type Drain = Extract<WorldEvent, { kind: 'drain' }>;
type Step = Extract<WorldEvent, { kind: 'step' }>;

/** A scan sees the id's live file, its record and its claim. */
const seeFile: Observe = (ctx, w, proc, e) => {
  const id = (e as Scan).id;
  return { type: 'SCAN', file: w.live[id], read: readFor(ctx, w, proc, id), claim: claimView(w, id, proc.pid, ctx.sessionClaims === true) };
};

/** A drain sees the id's record alone. */
const seeRecord: Observe = (ctx, w, proc, e) => {
  const id = (e as Drain).id;
  return { type: 'DRAIN', id, read: readFor(ctx, w, proc, id) };
};

export const scan: EventKind<Scan> = eventKind({
  name: 'scan',
  group: 'engine',
  tag: 'normal',
  range: 'engine-id',
  event: 'scan',
  enabled: (w, _ctx, { engine, id }) => (engine?.state === 'idle' && id !== null && w.live[id] !== undefined ? [{ kind: 'scan', pid: engine.pid, id }] : []),
  reads: ['live'],
  engineStates: ['idle'],
  apply: (w, e, ctx, tags) => stepEngine(ctx, w, e, tags, null, seeFile),
  label: (e) => `e${e.pid} scan ${idText(e.id)}`,
  counter: null,
  draw: (e, v) => ({ from: `e${e.pid}`, to: 'Outbox', broken: false, text: stepText(v, `scan results/${idText(e.id)}, publish`) }),
  knob: null,
  durable: [{ write: 'publish (record write)', at: 'idle' }],
  doc: {
    example: 'e1 scan a',
    enabled: 'the engine is idle and id `a` has a live file',
    does: 'reads the record, asks `admit`; writes, keeps, quarantines or leaves',
    stands: 'the gateway picking up a result file',
  },
});

export const drain: EventKind<Drain> = eventKind({
  name: 'drain',
  group: 'engine',
  tag: 'normal',
  range: 'engine-id',
  event: 'drain',
  enabled: (w, ctx, { engine, id }) => {
    if (engine?.state !== 'idle' || id === null || w.live[id] !== undefined) return [];
    const read = readFor(ctx, w, engine, id);
    if (read.kind !== 'found' || !isPending(read.record.status)) return [];
    const rules = rulesOf(ctx, engine);
    // A pending record (READY or QUEUED) the engine's rule set does not select (`selectable`) is not
    // drained. The clock is read for `selectable` only (without it every pending record is selected,
    // whatever the time: `selects` answers so without its view, which is then not made; most records
    // a drain is asked about are not pending, and every step asks).
    return rules.selectable === undefined || selects(rules, read.record, { id, who: whoOf(ctx, engine), now: selectsByRecordAlone(rules) ? TIME_ORIGIN : TIME_ORIGIN + nowOf(w) }) ? [{ kind: 'drain', pid: engine.pid, id }] : [];
  },
  reads: ['live', 'records', 'clock'],
  // The clock only for a rule set that selects (a retry schedule selects by time): a tick then leaves the listing.
  // A selection by the record alone (`selectsByRecordAlone`: fail-closed's digest check) reads no clock either.
  readsIn: (ctx) => (selectsByRecordAlone(ctx.worldRules.rules) && (ctx.worldRules.oldRules === undefined || selectsByRecordAlone(ctx.worldRules.oldRules)) ? ['live', 'records'] : ['live', 'records', 'clock']),
  engineStates: ['idle'],
  apply: (w, e, ctx, tags) => stepEngine(ctx, w, e, tags, null, seeRecord),
  label: (e) => `e${e.pid} drain ${idText(e.id)}`,
  counter: null,
  draw: (e, v) => ({ from: `e${e.pid}`, to: 'Outbox', broken: false, text: stepText(v, `drain ${idText(e.id)}`) }),
  knob: null,
  doc: {
    example: 'e1 drain a',
    enabled: 'the engine is idle, `a` has no live file, and its record reads READY and is selected (`selectable`, default every READY record)',
    does: 'starts the delivery core on the record alone',
    stands: 'the gateway retrying a record whose file is gone',
  },
});

/** Engine `proc`'s next step as an event (in any state but `idle` and `posting`). */
export function nextStep(proc: EngineProc): WorldEvent {
  return { kind: 'step', pid: proc.pid, at: proc.state };
}

/** Words for an engine step in the diagram, by the lifecycle state it leaves. */
const STEP_WORDS: Record<string, string> = {
  idle: 'start a pass',
  claiming: 'claim',
  preSend: 'pre-send write',
  posting: 'POST',
  completing: 'complete',
  releasing: 'release claim',
};

export const step: EventKind<Step> = eventKind({
  name: 'step',
  group: 'engine',
  tag: 'normal',
  range: 'engine',
  event: 'step',
  enabled: (_w, _ctx, { engine }) =>
    engine !== null && engine.state !== 'idle' && engine.state !== 'posting' ? [{ kind: 'step', pid: engine.pid, at: engine.state }] : [],
  reads: [],
  engineStates: LIFECYCLE_STATES.filter((s) => s !== 'idle' && s !== 'posting'),
  apply: (w, e, ctx, tags) => stepEngine(ctx, w, e, tags, null),
  label: (e) => `e${e.pid} ${e.at}`,
  replayKey: (e) => `${e.kind}:${e.pid}`,
  counter: null,
  draw: (e, v) =>
    e.at === 'disposing'
      ? { from: `e${e.pid}`, to: 'Producer', broken: false, text: v.durable === '' ? `${v.n}. dispose: the file stays in results/` : stepText(v, 'dispose') }
      : { from: `e${e.pid}`, to: 'Outbox', broken: false, text: stepText(v, STEP_WORDS[e.at] ?? e.at) },
  knob: null,
  durable: [
    { write: 'claim', at: 'claiming' },
    { write: 'pre-send write', at: 'preSend' },
    { write: 'completion write(s)', at: 'completing' },
    { write: 'release claim', at: 'releasing' },
    { write: 'dispose (archive/quarantine)', at: 'disposing' },
  ],
  doc: {
    example: 'e1 claiming',
    enabled: 'the engine is in any state but `idle` and `posting`; the label names the state it leaves',
    does: 'the next atomic step: claim, pre-send write, one completion write, release, dispose',
    stands: 'the gateway working through one item',
  },
});
