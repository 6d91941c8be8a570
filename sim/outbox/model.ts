/**
 * The outbox system as a {@link SimModel}: which events are enabled in a
 * world, and how each changes it. Engine behaviour comes only from stepping
 * the lifecycle statechart; this file observes the world for the engine
 * (record read, claim, live file, broker reply) and applies the durable
 * effects the statechart emits.
 */
import { brokerAccept } from '../../model/broker.ts';
import type { EngineEvent } from '../../model/lifecycle.ts';
import { readSlot } from '../../model/record.ts';
import type { RuleSet } from '../../model/rules.ts';
import type { ClaimView, Effect, Envelope, RecordRead, Reply } from '../../model/types.ts';
import { RECOVERY } from '../../model/quarantine.ts';
import { outboxProperties } from './properties.ts';
import { canonicalJson } from '../core/canonical.ts';
import { worldEncoder } from './encode.ts';
import type { ChoiceGroup, SimModel, StepResult } from '../core/model.ts';
import { answerOffered, ANSWERS, FAULTS, type Answer, type WorldOptions } from './options.ts';
import { initialMemory, xstateStepper, type Stepper } from './stepper.ts';
import { bodyName, idNames, labelOf, type EngineProc, type World, type WorldEvent } from './world.ts';

/** The rule sets a world runs. */
export interface WorldRules {
  rules: RuleSet;
  /** Present for version skew: engines of both rule sets share the store. */
  oldRules?: RuleSet;
}

/** How engine steps are computed (the XState reference, or the derived fast path). */
export interface Steppers {
  new: Stepper;
  old: Stepper;
}

/**
 * What each broker answer means: whether the broker received (and so
 * processed, per its dedupe mode) the POST, and the reply the provider sees
 * (null: the broker's own reply to an accepted POST).
 */
const ANSWER_EFFECT: Record<Answer, { received: boolean; reply: Reply | null }> = {
  accept: { received: true, reply: null },
  'refuse-400': { received: false, reply: 'refused-400' },
  'refuse-409': { received: false, reply: 'conflict-409' },
  'unavailable-503': { received: false, reply: 'unavailable-503' },
  'timeout-unsent': { received: false, reply: 'timeout' },
  'lost-reply': { received: true, reply: 'timeout' },
  'garbled-200': { received: true, reply: 'garbled-200' },
  'crash-in-post': { received: true, reply: 'timeout' },
  'garbled-unsent': { received: false, reply: 'garbled-200' },
};

/** Weights of the subsystems against each other in random runs. */
const GROUP_WEIGHT = { engine: 10, broker: 5, process: 2, producer: 2, operator: 1 } as const;

/** Builds the outbox model for one world's options and rule sets. */
export function outboxModel(
  options: WorldOptions,
  worldRules: WorldRules,
  steppers: Steppers = {
    new: xstateStepper(worldRules.rules),
    old: xstateStepper(worldRules.oldRules ?? worldRules.rules),
  },
): SimModel<World, WorldEvent> {
  const ids = idNames(options.ids);
  const skew = options.skew && worldRules.oldRules !== undefined;
  const rulesOf = (v: 'new' | 'old') => (v === 'old' && worldRules.oldRules ? worldRules.oldRules : worldRules.rules);

  const initial = (): World => {
    const engines: EngineProc[] = [];
    for (let i = 0; i < options.engines; i++) {
      const version = skew && i % 2 === 0 ? 'old' : 'new';
      engines.push({ pid: i + 1, version, ...initialMemory(i + 1, options.attemptsMax) });
    }
    return {
      records: {},
      claims: {},
      live: {},
      archived: [],
      quarantined: [],
      broker: {},
      engines,
      produced: Object.fromEntries(ids.map((id) => [id, 0])),
      published: [],
      reported: {},
      nextPid: options.engines + 1,
      nextGeneration: 1,
      crashes: 0,
      corruptions: 0,
      operatorActions: 0,
      parkedAttempts: [],
      healing: false,
    };
  };

  const claimView = (w: World, id: string, pid: number): ClaimView => {
    const c = w.claims[id];
    if (c === undefined) return { kind: 'free' };
    if (c.kind === 'torn') return { kind: 'torn' };
    return { kind: 'held', mine: c.owner === pid, ownerAlive: w.engines.some((e) => e.pid === c.owner) };
  };
  const readFor = (w: World, proc: EngineProc, id: string): RecordRead => readSlot(w.records[id], rulesOf(proc.version).schemaKnown);

  const choices = (w: World): ChoiceGroup<WorldEvent>[] => {
    const engineEvents: WorldEvent[] = [];
    const brokerEvents: WorldEvent[] = [];
    const brokerWeights: number[] = [];
    const faultEvents: WorldEvent[] = [];
    const faultWeights: number[] = [];
    for (const e of w.engines) {
      if (e.state === 'idle') {
        for (const id of ids) {
          const f = w.live[id];
          if (f !== undefined) engineEvents.push({ kind: 'scan', pid: e.pid, id });
          const read = f === undefined ? readFor(w, e, id) : null;
          if (read !== null && read.kind === 'found' && read.record.status === 'READY') {
            engineEvents.push({ kind: 'drain', pid: e.pid, id });
          }
        }
      } else if (e.state === 'posting') {
        ANSWERS.forEach((answer, i) => {
          if (!answerOffered(options, answer, w.healing, w.crashes)) return;
          brokerEvents.push({ kind: 'answer', pid: e.pid, answer });
          // Once faults stop the broker gives its one steady answer, whatever its fault weight was.
          brokerWeights.push(w.healing ? 1 : options.answerWeights[i]);
        });
      } else {
        engineEvents.push({ kind: 'step', pid: e.pid, at: e.state });
      }
    }
    const groups: ChoiceGroup<WorldEvent>[] = [
      { group: 'engine', weight: GROUP_WEIGHT.engine, events: engineEvents },
      { group: 'broker', weight: GROUP_WEIGHT.broker, events: brokerEvents, eventWeights: brokerWeights },
    ];
    const processEvents: WorldEvent[] = [];
    if (w.engines.length < options.engines) {
      processEvents.push({ kind: 'restart', version: 'new' });
      if (skew && !w.healing) processEvents.push({ kind: 'restart', version: 'old' });
    }
    if (w.healing) {
      groups.push({ group: 'process', weight: GROUP_WEIGHT.process, events: processEvents });
      return groups;
    }
    if (skew) for (const e of w.engines) if (e.version === 'old') processEvents.push({ kind: 'upgrade', pid: e.pid });
    groups.push({ group: 'process', weight: GROUP_WEIGHT.process, events: processEvents });

    const producerEvents: WorldEvent[] = ids.filter((id) => w.produced[id] < options.bodiesPerId).map((id) => ({ kind: 'produce', id }));
    groups.push({ group: 'producer', weight: GROUP_WEIGHT.producer, events: producerEvents });

    const operatorEvents: WorldEvent[] = [];
    if (w.operatorActions < options.operatorActionsMax) {
      for (const id of ids) {
        const slot = w.records[id];
        if (slot?.kind === 'record' && slot.record.status === 'PARKED') {
          operatorEvents.push({ kind: 'requeue', id, reset: false }, { kind: 'requeue', id, reset: true });
        }
      }
      w.quarantined.forEach((q, index) => {
        if (w.live[q.id] === undefined) operatorEvents.push({ kind: 'restore', index });
      });
    }
    groups.push({ group: 'operator', weight: GROUP_WEIGHT.operator, events: operatorEvents });

    if (w.crashes < options.crashesMax && options.faultWeights[FAULTS.indexOf('crash')] > 0) {
      for (const e of w.engines) {
        faultEvents.push({ kind: 'crash', pid: e.pid, at: e.state });
        faultWeights.push(options.faultWeights[FAULTS.indexOf('crash')]);
      }
    }
    if (w.corruptions < options.corruptionsMax) {
      const add = (kind: 'tear-record' | 'tear-claim' | 'newer-schema' | 'legacy-record', id: string) => {
        const weight = options.faultWeights[FAULTS.indexOf(kind)];
        if (weight > 0) {
          faultEvents.push({ kind, id });
          faultWeights.push(weight);
        }
      };
      for (const id of ids) {
        const slot = w.records[id];
        if (slot?.kind === 'record') {
          add('tear-record', id);
          if (slot.record.schema <= 1) add('newer-schema', id);
          if (typeof slot.record.attempts === 'number') add('legacy-record', id);
        }
        if (w.claims[id]?.kind === 'held') add('tear-claim', id);
      }
    }
    groups.push({ group: 'fault', weight: options.faultGroupWeight, events: faultEvents, eventWeights: faultWeights });
    return groups;
  };

  /** The engine event an engine-driven world event becomes, observed from the world. */
  const engineEventFor = (w: World, proc: EngineProc, e: WorldEvent, reply: Reply | null): EngineEvent => {
    if (e.kind === 'scan') return { type: 'SCAN', file: w.live[e.id], read: readFor(w, proc, e.id) };
    if (e.kind === 'drain') return { type: 'DRAIN', id: e.id, read: readFor(w, proc, e.id) };
    const id = proc.ctx.id ?? '';
    if (reply !== null) return { type: 'POST', reply, claim: claimView(w, id, proc.pid) };
    return { type: 'STEP', read: readFor(w, proc, id), claim: claimView(w, id, proc.pid), live: w.live[id] ?? null };
  };

  /** Applies the durable effects of one engine step. */
  const applyEffects = (w: World, proc: EngineProc, effects: readonly Effect[], tags: string[]): void => {
    for (const fx of effects) {
      switch (fx.kind) {
        case 'write-record': {
          w.records = { ...w.records, [fx.id]: { kind: 'record', record: fx.record } };
          const pub = `${fx.id}:${fx.record.payload}`;
          if (!w.published.includes(pub)) w.published = [...w.published, pub].sort();
          tags.push(`write@${proc.state}`, `status:${fx.record.status}`);
          if (fx.record.status === 'DELIVERED') tags.push('layer:reported');
          break;
        }
        case 'take-claim':
          w.claims = { ...w.claims, [fx.id]: { kind: 'held', owner: proc.pid } };
          tags.push('layer:claim');
          break;
        case 'release-claim': {
          const { [fx.id]: _gone, ...rest } = w.claims;
          w.claims = rest;
          tags.push('release');
          break;
        }
        case 'post':
          // Applied by the caller: the broker's part depends on the answer.
          tags.push('layer:post');
          break;
        case 'archive':
        case 'quarantine': {
          const f = w.live[fx.file.id];
          if (f === undefined || f.generation !== fx.file.generation) break;
          const { [fx.file.id]: _moved, ...rest } = w.live;
          w.live = rest;
          if (fx.kind === 'archive') {
            w.archived = [...w.archived, f];
            w.reported = { ...w.reported, [f.id]: f.body };
            tags.push('layer:reported', 'archive');
          } else {
            w.quarantined = [...w.quarantined, { ...f, cause: fx.cause, recovery: RECOVERY }];
            tags.push(`quarantine:${fx.cause}`);
          }
          break;
        }
      }
    }
  };

  const stepEngine = (w: World, e: WorldEvent & { pid: number }, tags: string[]): World => {
    const index = w.engines.findIndex((p) => p.pid === e.pid);
    const proc = w.engines[index];
    const next: World = { ...w, engines: [...w.engines] };
    let reply: Reply | null = null;
    let envelope: Envelope | null = null;
    let acceptance: ReturnType<typeof brokerAccept> | null = null;
    if (e.kind === 'answer') {
      envelope = proc.ctx.envelope;
      const answer: Answer = e.answer;
      tags.push(`answer:${answer}`);
      const held = envelope !== null ? (w.broker[envelope.id] ?? null) : null;
      const { received, reply: seen } = ANSWER_EFFECT[answer];
      if (received && envelope !== null) acceptance = brokerAccept(options.broker, held, envelope);
      // An accepted POST gets the broker's own reply (a duplicate may be answered 409).
      reply = seen ?? acceptance?.reply ?? 'ok';
    }
    const event = engineEventFor(w, proc, e, reply);
    if (event.type !== 'POST' && 'read' in event) tags.push(`read:${event.read.kind}`);
    const stepper = proc.version === 'old' ? steppers.old : steppers.new;
    const out = stepper({ state: proc.state, ctx: proc.ctx }, event);
    applyEffects(next, proc, out.effects, tags);
    const posted = out.effects.some((fx) => fx.kind === 'post');
    if (posted && envelope !== null) {
      const slot = w.records[envelope.id];
      if (slot?.kind === 'record' && slot.record.status === 'PARKED' && !next.parkedAttempts.includes(envelope.id)) {
        next.parkedAttempts = [...next.parkedAttempts, envelope.id];
      }
    }
    if (posted && acceptance !== null && envelope !== null) {
      if (acceptance.stored) tags.push('layer:stored');
      if (acceptance.holding !== null) next.broker = { ...w.broker, [envelope.id]: acceptance.holding };
    }
    if (e.kind === 'answer' && e.answer === 'crash-in-post') {
      next.engines.splice(index, 1);
      next.crashes++;
      tags.push('fault:crash-in-post', 'crash@post-received');
    } else {
      next.engines[index] = { ...proc, state: out.state, ctx: out.ctx };
    }
    return next;
  };

  const step = (w: World, e: WorldEvent): StepResult<World> => {
    const tags: string[] = [];
    switch (e.kind) {
      case 'scan':
      case 'drain':
      case 'step':
      case 'answer':
        return { state: stepEngine(w, e, tags), tags };
      case 'crash': {
        tags.push('fault:crash', `crash@${e.at}`);
        return { state: { ...w, engines: w.engines.filter((p) => p.pid !== e.pid), crashes: w.crashes + 1 }, tags };
      }
      case 'restart': {
        const pid = w.nextPid;
        const proc: EngineProc = { pid, version: e.version, ...initialMemory(pid, options.attemptsMax) };
        tags.push('restart');
        return { state: { ...w, engines: [...w.engines, proc], nextPid: pid + 1 }, tags };
      }
      case 'upgrade': {
        // A rolling upgrade stops the old process and starts a new-rules one: memory is lost.
        const pid = w.nextPid;
        const proc: EngineProc = { pid, version: 'new', ...initialMemory(pid, options.attemptsMax) };
        tags.push('fault:upgrade');
        return { state: { ...w, engines: [...w.engines.filter((p) => p.pid !== e.pid), proc], nextPid: pid + 1 }, tags };
      }
      case 'produce': {
        const k = w.produced[e.id];
        const body = bodyName(ids.indexOf(e.id), k, options.bodiesPerId);
        const replacing = w.live[e.id] !== undefined;
        const inFlight = w.engines.some((p) => p.ctx.id === e.id && p.state !== 'idle');
        tags.push('layer:written');
        if (replacing) tags.push('replace-live');
        if (replacing && inFlight) tags.push('fault:replace-during-send');
        return {
          state: {
            ...w,
            live: { ...w.live, [e.id]: { id: e.id, body, generation: w.nextGeneration } },
            nextGeneration: w.nextGeneration + 1,
            produced: { ...w.produced, [e.id]: k + 1 },
          },
          tags,
        };
      }
      case 'requeue': {
        const slot = w.records[e.id];
        if (slot?.kind !== 'record') return { state: w, tags };
        // The operator's tool reads the record whatever its schema, a legacy one with its missing fields
        // filled in: given as stored, it lacked the resendEpoch a requeue adds to, and NaN was written back.
        const read = readSlot(slot, Number.MAX_SAFE_INTEGER);
        const record = worldRules.rules.requeue(read.kind === 'found' ? read.record : slot.record, e.reset);
        tags.push(e.reset ? 'fault:requeue-reset' : 'fault:requeue');
        return {
          state: { ...w, records: { ...w.records, [e.id]: { kind: 'record', record } }, operatorActions: w.operatorActions + 1 },
          tags,
        };
      }
      case 'restore': {
        const q = w.quarantined[e.index];
        const quarantined = w.quarantined.filter((_, i) => i !== e.index);
        tags.push('fault:restore');
        return {
          state: {
            ...w,
            quarantined,
            live: { ...w.live, [q.id]: { id: q.id, body: q.body, generation: w.nextGeneration } },
            nextGeneration: w.nextGeneration + 1,
            operatorActions: w.operatorActions + 1,
          },
          tags,
        };
      }
      case 'tear-record': {
        const slot = w.records[e.id];
        const bytes = slot?.kind === 'record' ? canonicalJson(slot.record).slice(0, 20) : '';
        tags.push('fault:tear-record');
        return { state: { ...w, records: { ...w.records, [e.id]: { kind: 'torn', bytes } }, corruptions: w.corruptions + 1 }, tags };
      }
      case 'tear-claim':
        tags.push('fault:tear-claim');
        return { state: { ...w, claims: { ...w.claims, [e.id]: { kind: 'torn' } }, corruptions: w.corruptions + 1 }, tags };
      case 'newer-schema': {
        const slot = w.records[e.id];
        if (slot?.kind !== 'record') return { state: w, tags };
        // A newer engine rewrote the record: schema 2 and a field older engines do not know.
        const record = { ...slot.record, schema: 2, deliveryClass: 'priority' };
        tags.push('fault:newer-schema');
        return { state: { ...w, records: { ...w.records, [e.id]: { kind: 'record', record } }, corruptions: w.corruptions + 1 }, tags };
      }
      case 'legacy-record': {
        const slot = w.records[e.id];
        if (slot?.kind !== 'record') return { state: w, tags };
        // A record as a pre-attempts engine wrote it: counters and digest missing.
        const { attempts: _a, resendEpoch: _r, digest: _d, ...legacy } = slot.record;
        tags.push('fault:legacy-record');
        return {
          state: { ...w, records: { ...w.records, [e.id]: { kind: 'record', record: legacy as typeof slot.record } }, corruptions: w.corruptions + 1 },
          tags,
        };
      }
    }
  };

  /** Durable part of the world: what survives every crash. */
  const durableKey = (w: World): string =>
    canonicalJson([w.records, w.claims, w.live, w.archived, w.quarantined, w.broker]);

  /**
   * Quiet: every engine is idle, and no engine starting a pass now (on any
   * live file or READY record, with the broker giving its steady answer)
   * would change anything durable or POST anything: retrying forever is not
   * quiet. Decided by stepping the statechart itself.
   */
  const quiescent = (w: World): boolean => {
    if (w.engines.some((p) => p.state !== 'idle')) return false;
    if (w.engines.length === 0) return true;
    const before = durableKey(w);
    const probe = w.engines[0];
    const starts = choices(w)
      .flatMap((g) => g.events)
      .filter((e) => (e.kind === 'scan' || e.kind === 'drain') && e.pid === probe.pid);
    for (const start of starts) {
      let out = step(w, start);
      for (let i = 0; i < 32; i++) {
        const p = out.state.engines.find((x) => x.pid === probe.pid);
        if (p === undefined || p.state === 'idle') break;
        const e: WorldEvent = p.state === 'posting' ? { kind: 'answer', pid: p.pid, answer: options.healAnswer } : { kind: 'step', pid: p.pid, at: p.state };
        out = step(out.state, e);
        if (out.tags.includes('layer:post')) return false;
      }
      if (durableKey(out.state) !== before) return false;
    }
    return true;
  };

  const heal = (w: World): World => {
    const engines = [...w.engines];
    let nextPid = w.nextPid;
    while (engines.length < options.engines) {
      engines.push({ pid: nextPid, version: 'new', ...initialMemory(nextPid, options.attemptsMax) });
      nextPid++;
    }
    return { ...w, engines, nextPid, healing: true };
  };

  return {
    initial,
    choices,
    step,
    label: labelOf,
    key: worldEncoder(ids),
    properties: outboxProperties(),
    heal,
    quiescent,
  };
}
