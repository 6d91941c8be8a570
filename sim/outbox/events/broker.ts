/**
 * The broker's answers to a POST (subsystem `broker`), one entry per answer,
 * in the order of `ANSWERS` (the order of `answerWeights`; each weight is
 * drawn from the answer's own stream).
 * Each says whether the broker received the POST (and then processed it by
 * its dedupe mode, docs/protocol.md 'Broker') and which reply the engine
 * sees. The POST is the durable write every answer ends.
 * Under late landing one more answer, `timeout-in-transit`, leaves the POST
 * neither received nor lost but on its way: `land` (land.ts) delivers it later.
 */
import type { Reply } from '../../../model/types.ts';
import { ANSWER_KNOBS, answerOffered, ANSWERS, LATE_LANDING_KNOBS, type Answer, type WorldOptions } from '../options.ts';
import type { WorldEvent } from '../world.ts';
import { postingId, underDedupeWindow } from './dedupe-window.ts';
import { stepEngine, type AnswerEffect } from './engine-step.ts';
import { stepText, type EventKind } from './kind.ts';

type AnswerEvent = Extract<WorldEvent, { kind: 'answer' }>;

interface AnswerSpec {
  received: boolean;
  /** The reply the engine sees; null: the broker's own (`ok`, or `conflict-409` for a duplicate under `id-409`). */
  reply: Reply | null;
  /** Set when the engine cannot tell what the broker did: what went wrong, in a few words. */
  hidden?: string;
  /** The real failure it stands for. */
  stands: string;
}

const SPECS: Record<Answer, AnswerSpec> = {
  accept: { received: true, reply: null, stands: 'none: a healthy broker' },
  'refuse-400': { received: false, reply: 'refused-400', stands: 'the broker rejects the request as invalid' },
  'refuse-409': { received: false, reply: 'conflict-409', stands: 'the broker reports a conflict for this request' },
  'unavailable-503': { received: false, reply: 'unavailable-503', stands: 'broker overloaded or down, connection refused: nothing stored' },
  'timeout-unsent': { received: false, reply: 'timeout', hidden: 'timeout, nothing stored', stands: 'the request timed out before it reached the broker' },
  'lost-reply': {
    received: true,
    reply: 'timeout',
    hidden: 'the broker stored it, the reply is lost',
    stands: 'the broker stored the body and the response was lost (reset after sending, read timeout)',
  },
  'garbled-200': {
    received: true,
    reply: 'garbled-200',
    hidden: 'the reply cannot be parsed',
    stands: 'a success response truncated or mangled on the way back (a proxy, a bad encoding)',
  },
  'crash-in-post': {
    received: true,
    reply: 'timeout',
    hidden: 'the engine dies after the broker received the POST',
    stands: 'the engine process dies after the broker stored the request, before it reads the reply; counts as a crash and needs one left in the budget',
  },
  'garbled-unsent': {
    received: false,
    reply: 'garbled-200',
    hidden: 'the failure reply cannot be parsed, nothing stored',
    stands: 'a failure response cut short so that it cannot be parsed; nothing was stored',
  },
};

/** The durable write every answer ends (declared once, on the healthy answer). */
export const POST_WRITE = 'POST (broker received)';

function answerKind(name: Answer, index: number): EventKind<AnswerEvent> {
  const spec = SPECS[name];
  const crash = name === 'crash-in-post' ? ['fault:crash-in-post', 'crash@post-received'] : undefined;
  const effect: AnswerEffect = { name, received: spec.received, reply: spec.reply, ...(crash ? { crash } : {}) };
  const seen = spec.reply === null ? "the broker's own reply" : name === 'crash-in-post' ? 'nothing: the engine is gone' : `\`${spec.reply}\``;
  return {
    name,
    group: 'broker',
    tag: name === 'accept' ? 'normal' : 'fault',
    range: 'engine',
    event: 'answer',
    owns: (e) => e.answer === name,
    enabled: (w, ctx, { engine }) =>
      engine?.state === 'posting' && answerOffered(ctx.options, name, w.healing, w.crashes) ? [{ kind: 'answer', pid: engine.pid, answer: name }] : [],
    // Once faults stop the broker gives its one steady answer, whatever its fault weight was.
    weight: (w, ctx) => (w.healing ? 1 : ctx.options.answerWeights[index]),
    apply: underDedupeWindow<AnswerEvent>((w, e, ctx, tags) => stepEngine(ctx, w, e, tags, effect), postingId),
    label: (e) => `e${e.pid} POST -> ${e.answer}`,
    counter: crash ? crash[0] : `answer:${name}`,
    draw: (e, v) => {
      const env = v.enginesBefore.find((p) => p.pid === e.pid)?.ctx.envelope ?? null;
      const what = env === null ? `POST -> ${e.answer}` : `POST ${env.id} = ${env.body} (key ${env.key}) -> ${e.answer}`;
      const from = `e${e.pid}`;
      return {
        from,
        to: 'Broker',
        broken: spec.hidden !== undefined,
        text: stepText(v, what),
        ...(spec.hidden !== undefined ? { note: { over: `${from},Broker`, text: `fault: ${spec.hidden}` } } : {}),
      };
    },
    ...(spec.hidden !== undefined ? { hidden: spec.hidden } : {}),
    knob: { stream: ANSWER_KNOBS[index].stream, weight: (options) => options.answerWeights[index], draw: ANSWER_KNOBS[index].draw },
    ...(name === 'accept' ? { durable: [{ write: POST_WRITE, at: 'posting' }] } : {}),
    ...(crash ? { crashDuring: { write: POST_WRITE, tag: crash[1] } } : {}),
    doc: {
      example: `e1 POST -> ${name}`,
      enabled: name === 'crash-in-post' ? 'the engine is posting and crashes are left' : 'the engine is posting',
      does: `the broker ${spec.received ? 'receives it (and stores it per its dedupe mode)' : 'stores nothing'}; the engine sees ${seen}`,
      stands: spec.stands,
    },
  };
}

/** The answers, in `ANSWERS` order. */
export const answers: readonly EventKind<AnswerEvent>[] = ANSWERS.map(answerKind);

type InTransitEvent = Extract<WorldEvent, { kind: 'post-in-transit' }>;

/** The bound on POSTs in transit; 0: late landing is off. */
export const inTransitMax = (options: WorldOptions): number => options.inTransitMax ?? 0;

const IN_TRANSIT: AnswerEffect = { name: 'timeout-in-transit', received: false, reply: 'timeout' };
const IN_TRANSIT_KNOB = LATE_LANDING_KNOBS[1];
const IN_TRANSIT_HIDDEN = 'timeout; the POST is still on its way and may land later';

/**
 * Late landing: the engine times out while its POST is still on the wire.
 * The POST joins the world's POSTs in transit; until a `land` delivers it,
 * the broker has not seen it. Offered only while fewer than `inTransitMax`
 * are in transit; the answer that fills the list is tagged
 * `fault:in-transit-full`, so a run says when the bound held it back.
 */
export const timeoutInTransit: EventKind<InTransitEvent> = {
  name: 'timeout-in-transit',
  group: 'broker',
  tag: 'fault',
  range: 'engine',
  event: 'post-in-transit',
  enabled: (w, ctx, { engine }) =>
    engine?.state === 'posting' && !w.healing && (w.inTransit?.length ?? 0) < inTransitMax(ctx.options) ? [{ kind: 'post-in-transit', pid: engine.pid }] : [],
  weight: (_w, ctx) => ctx.options.inTransitWeight ?? 1,
  apply: underDedupeWindow<InTransitEvent>((w, e, ctx, tags) => {
    const envelope = w.engines.find((p) => p.pid === e.pid)?.ctx.envelope ?? null;
    const from = tags.length;
    const next = stepEngine(ctx, w, e, tags, IN_TRANSIT);
    if (envelope === null || tags.indexOf('layer:post', from) < 0) return next;
    const inTransit = [...(w.inTransit ?? []), { id: envelope.id, body: envelope.body, key: envelope.key }];
    if (inTransit.length >= inTransitMax(ctx.options)) tags.push('fault:in-transit-full');
    return { ...next, inTransit };
  }, postingId),
  label: (e) => `e${e.pid} POST -> timeout-in-transit`,
  counter: 'answer:timeout-in-transit',
  draw: (e, v) => {
    const env = v.enginesBefore.find((p) => p.pid === e.pid)?.ctx.envelope ?? null;
    const from = `e${e.pid}`;
    return {
      from,
      to: 'Broker',
      broken: true,
      text: stepText(v, env === null ? 'POST -> timeout-in-transit' : `POST ${env.id} = ${env.body} (key ${env.key}) -> timeout-in-transit`),
      note: { over: `${from},Broker`, text: `fault: ${IN_TRANSIT_HIDDEN}` },
    };
  },
  hidden: IN_TRANSIT_HIDDEN,
  knob: { stream: IN_TRANSIT_KNOB.stream, weight: (options) => (inTransitMax(options) > 0 ? (options.inTransitWeight ?? 1) : 0), draw: IN_TRANSIT_KNOB.draw },
  variants: [
    {
      name: 'in-transit-full',
      tag: 'fault',
      counter: 'fault:in-transit-full',
      doc: {
        enabled: 'a `timeout-in-transit` that makes `inTransitMax` POSTs in transit',
        does: 'the same step, tagged: the bound is reached, so until one lands no answer leaves a POST in transit (the report counts how often the bound held late landing back)',
        stands: 'none: the bound that keeps the model finite, reported rather than silent',
      },
    },
  ],
  doc: {
    example: 'e1 POST -> timeout-in-transit',
    enabled: 'late landing is on (`inTransitMax` N > 0), the engine is posting, faults have not stopped and fewer than N POSTs are in transit',
    does: 'the broker receives nothing yet: the POST joins the POSTs in transit (a `land` delivers it later, in any order); the engine sees `timeout`',
    stands: 'librdkafka\'s "message is delivered to Kafka, no delivery report": the request times out client-side while it is still on the wire and is stored later, after retries and other requests (Kafka\'s reordering with more than one request in flight)',
  },
};

/**
 * A world with one broker answer switched off (weight 0 in random runs; the
 * steady answer moves to `accept` if it was that one). The mutant table uses
 * it for a mistake that is right in such a world until a newer fault exists:
 * without `lost-reply` a timeout never stores when answered, so only a late
 * landing stores a timed-out POST.
 */
export function withoutAnswer(options: WorldOptions, answer: string): WorldOptions {
  const index = ANSWERS.findIndex((a) => a === answer);
  if (index < 0) throw new Error(`no broker answer ${answer}`);
  return {
    ...options,
    answerWeights: options.answerWeights.map((w, i) => (i === index ? 0 : w)),
    healAnswer: options.healAnswer === answer ? 'accept' : options.healAnswer,
  };
}
