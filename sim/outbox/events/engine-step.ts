/**
 * One engine step, shared by the engine's own events and the broker's
 * answers: observe the world for the engine (record read, claim, live file,
 * broker reply), step the lifecycle statechart, and apply the durable effects
 * it emits. Engine behaviour comes only from the statechart.
 */
import { brokerReceives, receiptTags, type BrokerReceipt } from './broker-keys.ts';
import { otherVersionKey } from './rekeyed.ts';
import { payloadAltered } from '../../../model/record.ts';
import type { EngineEvent } from '../../../model/lifecycle.ts';
import { causeSaysUndelivered, RECOVERY } from '../../../model/quarantine.ts';
import type { ClaimSlot, Effect, Envelope, RecordSlot, Reply } from '../../../model/types.ts';
import type { EngineProc, World, WorldEvent } from '../world.ts';
import { idBody } from '../id-body.ts';
import { copyWorld, withEntry, withMemory, withoutEntry } from '../world-copy.ts';
import { asWritten, schemaOf, type RecordSchema } from '../../../model/schema.ts';
import { hasClock, leaseUntil, nowOf } from './clock.ts';
import { TIME_ORIGIN } from '../../../model/time.ts';
import { claimView, otherRulesOf, readFor, rulesOf, type WorldContext } from './context.ts';

/** What a broker answer means for the step: whether the broker received the POST, the reply seen, and whether the engine dies. */
export interface AnswerEffect {
  name: string;
  /** The broker received (and so processed, per its dedupe mode) the POST. */
  received: boolean;
  /** The reply the engine sees; null: the broker's own reply to an accepted POST. */
  reply: Reply | null;
  /** The engine dies once the broker has the POST: these tags mark the crash. */
  crash?: readonly string[];
}

export type EngineWorldEvent = Extract<WorldEvent, { pid: number }>;

/** How an engine's own event that starts a pass is observed from the world (its entry says: a scan, a drain). */
export type Observe<E extends EngineWorldEvent = EngineWorldEvent> = (ctx: WorldContext, w: World, proc: EngineProc, e: E) => EngineEvent;

/** The engine event an engine-driven world event becomes, observed from the world. */
function engineEventFor(ctx: WorldContext, w: World, proc: EngineProc, e: EngineWorldEvent, reply: Reply | null, observe: Observe | null): EngineEvent {
  const event = observed(ctx, w, proc, e, reply, observe);
  // The clock, in a world with one; a world without one tells decisions 0 and keeps its events as
  // they were, but for the quiet test's probe of a later time (outbox-system.ts, `waitsForTime`).
  if (hasClock(ctx.options) || w.clock !== undefined) event.now = TIME_ORIGIN + nowOf(w);
  return event;
}

/** What the engine observes of the world for its step: as its entry says (a scan, a drain), else the record, the claim, the live file, the broker's reply. */
function observed(ctx: WorldContext, w: World, proc: EngineProc, e: EngineWorldEvent, reply: Reply | null, observe: Observe | null): EngineEvent {
  if (observe !== null) return observe(ctx, w, proc, e);
  const id = proc.ctx.id ?? '';
  if (reply !== null) return { type: 'POST', reply, claim: claimView(w, id, proc.pid, ctx.sessionClaims === true) };
  return { type: 'STEP', read: readFor(ctx, w, proc, id), claim: claimView(w, id, proc.pid, ctx.sessionClaims === true), live: w.live[id] ?? null };
}

/**
 * Applies the durable effects of one engine step to `w` (a fresh copy owned
 * by the caller). The world checks no claim: whether a write checks the
 * claim token first is the rule set's decision (`fences`), taken in the
 * statechart; an unfenced write or POST of a stale holder lands.
 */
function applyEffects(w: World, proc: EngineProc, effects: readonly Effect[], tags: string[], schema: RecordSchema, ctx: WorldContext, before: World): void {
  // A switch, not ts-pattern's match: this runs at every engine step, and match's closures and pattern walk cost more than the writes.
  for (let i = 0; i < effects.length; i++) {
    const fx = effects[i];
    switch (fx.kind) {
      case 'write-record': {
        // Written by the engine's serializer: fields its schema does not know are dropped if it says so.
        w.records = withEntry<RecordSlot>(w.records, fx.id, { kind: 'record', record: asWritten(schema, fx.record) });
        // A metadata-only record (no payload) publishes no body; nor does one whose payload is not the body
        // its digest names (alter-payload): that body was published when it was written, and the altered
        // payload is a damaged copy of it, which delivered-as-written judges if it is ever sent.
        const pub = typeof fx.record.payload === 'string' && !payloadAltered(fx.record) ? idBody(fx.id, fx.record.payload) : null;
        if (pub !== null && !w.published.includes(pub)) w.published = [...w.published, pub].sort();
        tags.push(tagOf(WRITE_AT, proc.state), tagOf(STATUS, fx.record.status));
        if (fx.record.status === 'DELIVERED') tags.push('layer:reported');
        break;
      }
      case 'take-claim': {
        // The lease's end, asked only of a step that takes a claim (a few steps in a run).
        const until = leaseUntil(ctx, before);
        w.claims = withEntry<ClaimSlot>(w.claims, fx.id, until === undefined ? { kind: 'held', owner: proc.pid } : { kind: 'held', owner: proc.pid, until });
        tags.push('layer:claim');
        break;
      }
      case 'release-claim': {
        w.claims = withoutEntry(w.claims, fx.id);
        tags.push('release');
        break;
      }
      // Applied by the caller: the broker's part depends on the answer.
      case 'post':
        tags.push('layer:post');
        break;
      case 'archive':
      case 'quarantine': {
        const f = w.live[fx.file.id];
        if (f === undefined || f.generation !== fx.file.generation) break;
        w.live = withoutEntry(w.live, fx.file.id);
        if (fx.kind === 'archive') {
          w.archived = [...w.archived, f];
          w.reported = withEntry(w.reported, f.id, f.body);
          tags.push('layer:reported', 'archive');
        } else {
          // A cause that says not delivered, for a body the broker holds, is noted for honest-park: judged as it is written (the
          // broker may hold it later, after an operator's requeue, without making the cause a false one). The cause first: the
          // holding is read only for such a quarantine (the packed explorer keys it for scans and disposals: transitions.ts).
          const contradicted = causeSaysUndelivered(fx.cause) && before.broker[f.id]?.body === f.body;
          w.quarantined = [...w.quarantined, contradicted ? { ...f, cause: fx.cause, recovery: RECOVERY, contradicted: true } : { ...f, cause: fx.cause, recovery: RECOVERY }];
          tags.push(tagOf(QUARANTINE, fx.cause));
        }
        break;
      }
      default:
        // Exhaustive: an effect the statechart may emit that is not applied here is a type error.
        return unapplied(fx);
    }
  }
}

function unapplied(fx: never): never {
  throw new Error(`engine step: an effect not applied: ${JSON.stringify(fx)}`);
}

/**
 * Tags made of a prefix and a word, made once and shared: a run counts its
 * tags in a map, and a string built afresh at every step is hashed afresh
 * at every count.
 */
interface TagFamily {
  prefix: string;
  byWord: Map<string, string>;
}
/** The tags of one prefix, by word (a family per call site: one look-up a tag, not two). */
const family = (prefix: string): TagFamily => ({ prefix, byWord: new Map() });
const WRITE_AT = family('write@');
const STATUS = family('status:');
const QUARANTINE = family('quarantine:');
const ANSWER = family('answer:');
const READ = family('read:');
/** The broker's own reply to an accepted POST when it is not `ok` (a duplicate answered 409 under `id-409`): the answer's name does not say it. */
const REPLY = family('reply:');

/** A POST the engine did not send: its claim was gone and its rule set fences the POST (docs/rules.md, 'Time'), so it abandoned the attempt. */
export const FENCED_POST_TAG = 'fenced:post';

/** The broker's own reply other than `ok` a step's tags record (see {@link REPLY}), or null. */
export function brokerReplyOf(tags: readonly string[]): string | null {
  for (const t of tags) if (t.startsWith(REPLY.prefix)) return t.slice(REPLY.prefix.length);
  return null;
}
function tagOf(f: TagFamily, word: string): string {
  let tag = f.byWord.get(word);
  if (tag === undefined) f.byWord.set(word, (tag = f.prefix + word));
  return tag;
}

/**
 * Steps engine `e.pid`; `answer` is the broker's answer when the engine is
 * posting; `observe` how an event that starts a pass is seen (else the
 * engine's next step, or its POST's reply, is observed).
 */
export function stepEngine(ctx: WorldContext, w: World, e: EngineWorldEvent, tags: string[], answer: AnswerEffect | null, observe: Observe | null = null): World {
  let index = 0;
  while (w.engines[index].pid !== e.pid) index++;
  const proc = w.engines[index];
  const next = copyWorld(w);
  next.engines = w.engines.slice();
  let reply: Reply | null = null;
  let envelope: Envelope | null = null;
  let received: BrokerReceipt | null = null;
  if (answer !== null) {
    envelope = proc.ctx.envelope;
    if (answer.received && envelope !== null) {
      const sent = envelope;
      // Under skew, what the other version would key this POST's record by (rekeyed.ts): asked only where an
      // operator's action would excuse a second store, so no closure is made for a POST before any action.
      const otherKey = ctx.skew && w.operatorActions > 0 ? () => otherVersionKey(rulesOf(ctx, proc), otherRulesOf(ctx, proc), w.records[sent.id], sent) : undefined;
      received = brokerReceives(ctx.options.broker, w, envelope, otherKey);
    }
    // An accepted POST gets the broker's own reply (a duplicate may be answered 409).
    reply = answer.reply ?? received?.acceptance.reply ?? 'ok';
  }
  const event = engineEventFor(ctx, w, proc, e, reply, observe);
  if (event.type !== 'POST' && 'read' in event) tags.push(tagOf(READ, event.read.kind));
  const stepper = proc.version === 'old' ? ctx.steppers.old : ctx.steppers.new;
  const out = stepper({ state: proc.state, ctx: proc.ctx }, event);
  const effects = out.effects;
  applyEffects(next, proc, effects, tags, schemaOf(rulesOf(ctx, proc)), ctx, w);
  // A loop, not `.some` with a closure: this runs at every engine step.
  let posted = false;
  for (let i = 0; i < effects.length && !posted; i++) posted = effects[i].kind === 'post';
  if (answer !== null) {
    // A POST its rule set fenced (the claim was gone) never left the engine: no answer came, and none is counted.
    if (posted || answer.crash !== undefined) {
      tags.push(tagOf(ANSWER, answer.name));
      if (answer.reply === null && reply !== 'ok') tags.push(tagOf(REPLY, reply as string));
    } else {
      tags.push(FENCED_POST_TAG);
    }
  }
  if (posted && envelope !== null) {
    const slot = w.records[envelope.id];
    const parked = (slot?.kind === 'record' && slot.record.status === 'PARKED') || w.parkedGone.includes(idBody(envelope.id, envelope.body));
    if (parked && !next.parkedAttempts.includes(envelope.id)) {
      next.parkedAttempts = [...next.parkedAttempts, envelope.id];
    }
  }
  if (posted && received !== null && envelope !== null) {
    receiptTags(received, tags);
    if (received.holding !== null) next.broker = withEntry(w.broker, envelope.id, received.holding);
  }
  if (answer?.crash !== undefined) {
    next.engines.splice(index, 1);
    next.crashes++;
    tags.push(...answer.crash);
  } else {
    next.engines[index] = withMemory(proc, out.state, out.ctx);
  }
  return next;
}
