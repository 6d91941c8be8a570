/**
 * The item lifecycle as one XState v5 statechart: one state per atomic step of
 * an engine's work on one file or record (publish, claim, pre-send write, POST,
 * each completion write, release, dispose). This is the only description of
 * the lifecycle in the project: the simulator steps it with XState's pure
 * `transition()`, and the fast path (`compiled.ts`) is derived from it.
 *
 * The machine does no I/O. Each durable write leaves it as a `persist` action
 * whose params are an {@link Effect}; the world applies it. What the engine
 * observes (the record, the claim, the live file, the broker's reply) arrives
 * in the event. Rule sets supply the guards' and actions' decisions through
 * `provide` (see {@link engineMachine}).
 */
import { assign, setup } from 'xstate';
import { decodedEnvelope, selects, type RuleSet, type Who } from './rules.ts';
import { fencesWrite, TIME_ORIGIN, type FencedWrite } from './time.ts';
import type { ClaimView, Effect, Envelope, OutboxRecord, Outcome, RecordRead, Reply, ResultFile } from './types.ts';

/** An engine's memory of the item it is working on. Lost when it crashes. */
export interface EngineContext {
  /** Process id of this engine. */
  pid: number;
  attemptsMax: number;
  /** The id being worked on, or null when idle. */
  id: string | null;
  /** The file generation read by this pass (null when draining a record with no file). */
  file: ResultFile | null;
  envelope: Envelope | null;
  outcome: Outcome | null;
  /** Completion writes still to do (null until the first one is computed). */
  pending: OutboxRecord[] | null;
  /** The durable effect of the latest step, emitted as a `persist` action. */
  effect: Effect | null;
}

/**
 * What the world tells an engine when it takes a step. `now` is the world's
 * clock (absent in a world without one: decisions are told 0).
 */
export type EngineEvent =
  | { type: 'SCAN'; file: ResultFile; read: RecordRead; claim: ClaimView; now?: number }
  | { type: 'DRAIN'; id: string; read: RecordRead; now?: number }
  | { type: 'STEP'; read: RecordRead; claim: ClaimView; live: ResultFile | null; now?: number }
  | { type: 'POST'; reply: Reply; claim: ClaimView; now?: number };

/** Input to start an engine process. */
export interface EngineInput {
  pid: number;
  attemptsMax: number;
}

type Args = { context: EngineContext; event: EngineEvent };

/** `assign` typed for this machine's context and events. */
function assignCtx(fn: ((a: Args) => Partial<EngineContext>) | Partial<EngineContext>) {
  return assign<EngineContext, EngineEvent, undefined, EngineEvent, never>(fn as never);
}

function readOf(event: EngineEvent): RecordRead | null {
  return 'read' in event ? event.read : null;
}
function claimOf(event: EngineEvent): ClaimView | null {
  return 'claim' in event ? event.claim : null;
}
function holds(event: EngineEvent): boolean {
  const c = claimOf(event);
  return c !== null && c.kind === 'held' && c.mine;
}
function nowOf(event: EngineEvent): number {
  return event.now ?? TIME_ORIGIN;
}

/**
 * A decision asked again with the same context and event (the same objects)
 * answers as it did: the guards of one state's transitions ask the same
 * decision in turn (is the admission a write? a keep? a quarantine?), and
 * the action taken asks it once more, all within one step. Decisions are
 * pure (docs/rules.md), so the first answer is kept for the step's objects.
 */
function lastCall<T>(decide: (a: Args) => T): (a: Args) => T {
  let context: EngineContext | null = null;
  let event: EngineEvent | null = null;
  let answer: T;
  return (a) => {
    if (a.context === context && a.event === event) return answer as T;
    const fresh = decide(a);
    context = a.context;
    event = a.event;
    answer = fresh;
    return fresh;
  };
}

/** Guards and actions for one rule set; `provide` installs them on the machine. */
export function implementationsFor(rules: RuleSet) {
  // Who decides: this engine, on this rule set (a rule may stamp it on the record).
  const whoOf = (context: EngineContext): Who => ({ pid: context.pid, rules: rules.name, schema: rules.schemaKnown });
  const admission = lastCall(({ context, event }: Args) =>
    event.type === 'SCAN'
      ? rules.admit({ id: event.file.id, body: event.file.body, read: event.read, claim: event.claim, who: whoOf(context), now: nowOf(event) })
      : null);
  const disposal = lastCall(({ context, event }: Args) =>
    context.file !== null && event.type === 'STEP'
      ? rules.dispose({ file: context.file, live: event.live, read: event.read, sent: context.envelope, outcome: context.outcome, who: whoOf(context), now: nowOf(event) })
      : { kind: 'leave' as const });
  /** The record, when it is READY and this engine selects it (`selectable`); else null. */
  const readyRead = (context: EngineContext, event: EngineEvent): (RecordRead & { kind: 'found' }) | null => {
    const read = readOf(event);
    if (read === null || read.kind !== 'found') return null;
    return selects(rules, read.record, { id: context.id ?? '', who: whoOf(context), now: nowOf(event) }) ? read : null;
  };
  const readyRecord = (context: EngineContext, event: EngineEvent): OutboxRecord | null => readyRead(context, event)?.record ?? null;
  // The stored record and its missing or ill-typed fields (docs/rules.md, 'Record schema').
  const preSendOf = lastCall(({ context, event }: Args) => {
    const read = readyRead(context, event);
    return read === null ? null : rules.preSend(read.record, { who: whoOf(context), stored: read.stored, now: nowOf(event), limits: { attemptsMax: context.attemptsMax } });
  });
  /**
   * The engine abandons the attempt before `write`: the claim is no longer
   * its own and its rule set fences that write. An unfenced write goes ahead
   * (docs/rules.md, 'Time').
   */
  const fencedOut = (write: FencedWrite) => ({ event }: Args) => !holds(event) && fencesWrite(rules, write);
  return {
    guards: {
      admitsWrite: (a: Args) => admission(a)?.kind === 'write',
      admitsKeep: (a: Args) => admission(a)?.kind === 'keep',
      admitsQuarantine: (a: Args) => admission(a)?.kind === 'quarantine',
      recordNotReady: ({ context, event }: Args) => readyRecord(context, event) === null,
      claimTakeable: ({ context, event }: Args) => {
        const c = claimOf(event);
        if (c === null) return false;
        const read = readyRead(context, event);
        return read === null ? rules.mayClaim(c) : rules.mayClaim(c, { id: context.id ?? '', record: read.record, who: whoOf(context), now: nowOf(event) });
      },
      fencedOutPreSend: fencedOut('pre-send'),
      fencedOutPost: fencedOut('post'),
      fencedOutComplete: fencedOut('complete'),
      fencedOutRelease: fencedOut('release'),
      noPreSend: (a: Args) => preSendOf(a) === null,
      // The rule parks the record instead of sending it (docs/rules.md, 'The decisions'): written, never POSTed.
      preSendParks: (a: Args) => preSendOf(a)?.status === 'PARKED',
      completionDone: ({ context }: Args) => context.pending !== null && context.pending.length === 0,
      completionUnreadable: ({ context, event }: Args) => context.pending === null && readOf(event)?.kind !== 'found',
      disposeArchives: (a: Args) => disposal(a).kind === 'archive',
      disposeQuarantines: (a: Args) => disposal(a).kind === 'quarantine',
    },
    actions: {
      startScan: assignCtx(({ event }: Args) =>
        event.type === 'SCAN' ? { id: event.file.id, file: event.file, envelope: null, outcome: null, pending: null } : {},
      ),
      startDrain: assignCtx(({ event }: Args) =>
        event.type === 'DRAIN' ? { id: event.id, file: null, envelope: null, outcome: null, pending: null } : {},
      ),
      writeAdmitted: assignCtx(({ context, event }: Args) => {
        const a = admission({ context, event });
        return a?.kind === 'write' && context.id !== null
          ? { effect: { kind: 'write-record', id: context.id, record: a.record } satisfies Effect }
          : {};
      }),
      quarantineRefused: assignCtx(({ context, event }: Args) => {
        const a = admission({ context, event });
        return a?.kind === 'quarantine' && event.type === 'SCAN'
          ? { effect: { kind: 'quarantine', file: event.file, cause: a.cause } satisfies Effect }
          : {};
      }),
      takeClaim: assignCtx(({ context }: Args) => ({ effect: { kind: 'take-claim', id: context.id ?? '' } satisfies Effect })),
      writePreSend: assignCtx(({ context, event }: Args) => {
        const record = preSendOf({ context, event });
        return record === null ? {} : { effect: { kind: 'write-record', id: context.id ?? '', record } satisfies Effect };
      }),
      buildEnvelope: assignCtx(({ context, event }: Args) => {
        const read = readyRead(context, event);
        if (read === null || context.id === null) return {};
        return { envelope: decodedEnvelope(rules, rules.envelope(context.id, rules.preSend(read.record, { who: whoOf(context), stored: read.stored, now: nowOf(event), limits: { attemptsMax: context.attemptsMax } }) ?? read.record)) };
      }),
      recordReply: assignCtx(({ context, event }: Args) =>
        event.type === 'POST' && context.envelope !== null
          ? { outcome: rules.classify(event.reply), effect: { kind: 'post', envelope: context.envelope } satisfies Effect }
          : {},
      ),
      writeCompletion: assignCtx(({ context, event }: Args) => {
        const read = readOf(event);
        let pending = context.pending;
        if (pending === null) {
          if (read === null || read.kind !== 'found' || context.outcome === null) return {};
          pending = rules.complete(read.record, context.outcome, { attemptsMax: context.attemptsMax }, { who: whoOf(context), stored: read.stored, now: nowOf(event) });
        }
        const [next, ...rest] = pending;
        if (next === undefined) return { pending: rest };
        return { pending: rest, effect: { kind: 'write-record', id: context.id ?? '', record: next } satisfies Effect };
      }),
      releaseClaim: assignCtx(({ context }: Args) => ({ effect: { kind: 'release-claim', id: context.id ?? '' } satisfies Effect })),
      archiveFile: assignCtx(({ context, event }: Args) => {
        const d = disposal({ context, event });
        return d.kind === 'archive' ? { effect: { kind: 'archive', file: d.file } satisfies Effect } : {};
      }),
      quarantineFile: assignCtx(({ context, event }: Args) => {
        const d = disposal({ context, event });
        return d.kind === 'quarantine' ? { effect: { kind: 'quarantine', file: d.file, cause: d.cause } satisfies Effect } : {};
      }),
      endItem: assignCtx({ id: null, file: null, envelope: null, outcome: null, pending: null }),
    },
  };
}

/** A decision asked of no rule set: a programming error, so a plain Error. */
function unprovided(decision: string): never {
  throw new Error(`the lifecycle statechart asked "${decision}" of no rule set: step engineMachine(rules), not lifecycleMachine`);
}

/**
 * The decisions before any rule set is provided: each one throws. No shipped
 * rule set is the lifecycle's default, so a machine stepped without
 * {@link engineMachine} fails loudly instead of quietly deciding as one of
 * them; the guards and actions that consult no decision work as ever.
 */
export const UNPROVIDED: RuleSet = {
  name: 'unprovided',
  summary: 'No rule set: every decision throws until engineMachine(rules) provides one.',
  schemaKnown: 0,
  admit: () => unprovided('admit'),
  mayClaim: () => unprovided('mayClaim'),
  preSend: () => unprovided('preSend'),
  envelope: () => unprovided('envelope'),
  classify: () => unprovided('classify'),
  complete: () => unprovided('complete'),
  requeue: () => unprovided('requeue'),
  dispose: () => unprovided('dispose'),
};

const base = implementationsFor(UNPROVIDED);

/**
 * The statechart, with no rule set's decisions ({@link UNPROVIDED});
 * {@link engineMachine} provides the rule set a run checks.
 */
export const lifecycleMachine = setup({
  types: {} as { context: EngineContext; events: EngineEvent; input: EngineInput },
  guards: base.guards,
  actions: {
    ...base.actions,
    // A durable write leaves the machine as data; nothing is executed.
    persist: (_: unknown, _params: Effect | null) => undefined,
  },
}).createMachine({
  id: 'engine',
  initial: 'idle',
  context: ({ input }) => ({
    pid: input.pid,
    attemptsMax: input.attemptsMax,
    id: null,
    file: null,
    envelope: null,
    outcome: null,
    pending: null,
    effect: null,
  }),
  states: {
    idle: {
      on: {
        SCAN: [
          { guard: 'admitsWrite', target: 'claiming', actions: ['startScan', 'writeAdmitted', { type: 'persist', params: ({ context }) => context.effect }] },
          { guard: 'admitsKeep', target: 'claiming', actions: ['startScan'] },
          { guard: 'admitsQuarantine', target: 'idle', actions: ['startScan', 'quarantineRefused', { type: 'persist', params: ({ context }) => context.effect }, 'endItem'] },
          // Leave the file live for a later pass: a step with no durable write.
          { target: 'idle' },
        ],
        DRAIN: { target: 'claiming', actions: ['startDrain'] },
      },
    },
    claiming: {
      on: {
        STEP: [
          { guard: 'recordNotReady', target: 'disposing' },
          { guard: 'claimTakeable', target: 'preSend', actions: ['takeClaim', { type: 'persist', params: ({ context }) => context.effect }] },
          // Busy or torn claim: a torn claim is never stolen; try next pass.
          { target: 'disposing' },
        ],
      },
    },
    preSend: {
      always: [{ guard: 'noPreSend', target: 'posting', actions: ['buildEnvelope'] }],
      on: {
        STEP: [
          // The claim was taken over: a fenced engine abandons the attempt (an unfenced one writes on).
          { guard: 'fencedOutPreSend', target: 'disposing' },
          { guard: 'recordNotReady', target: 'releasing' },
          // Park instead of send: the attempt ends as after a completion that parks (release, then dispose).
          { guard: 'preSendParks', target: 'releasing', actions: ['writePreSend', { type: 'persist', params: ({ context }) => context.effect }] },
          { target: 'posting', actions: ['writePreSend', { type: 'persist', params: ({ context }) => context.effect }, 'buildEnvelope'] },
        ],
      },
    },
    posting: {
      on: {
        POST: [
          { guard: 'fencedOutPost', target: 'disposing' },
          { target: 'completing', actions: ['recordReply', { type: 'persist', params: ({ context }) => context.effect }] },
        ],
      },
    },
    completing: {
      always: [{ guard: 'completionDone', target: 'releasing' }],
      on: {
        STEP: [
          { guard: 'fencedOutComplete', target: 'disposing' },
          // The record became unreadable mid-cycle: write nothing over it.
          { guard: 'completionUnreadable', target: 'releasing' },
          { target: 'completing', actions: ['writeCompletion', { type: 'persist', params: ({ context }) => context.effect }] },
        ],
      },
    },
    releasing: {
      on: {
        STEP: [
          { guard: 'fencedOutRelease', target: 'disposing' },
          { target: 'disposing', actions: ['releaseClaim', { type: 'persist', params: ({ context }) => context.effect }] },
        ],
      },
    },
    disposing: {
      on: {
        STEP: [
          { guard: 'disposeArchives', target: 'idle', actions: ['archiveFile', { type: 'persist', params: ({ context }) => context.effect }, 'endItem'] },
          { guard: 'disposeQuarantines', target: 'idle', actions: ['quarantineFile', { type: 'persist', params: ({ context }) => context.effect }, 'endItem'] },
          { target: 'idle', actions: ['endItem'] },
        ],
      },
    },
  },
});

/** The lifecycle statechart with a rule set's decisions provided. */
export function engineMachine(rules: RuleSet) {
  return lifecycleMachine.provide(implementationsFor(rules));
}


/** The lifecycle's states, in step order. */
export const LIFECYCLE_STATES = ['idle', 'claiming', 'preSend', 'posting', 'completing', 'releasing', 'disposing'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];
