/**
 * The broker's answers to a POST (subsystem `broker`), one entry per answer,
 * in the order of `ANSWERS` (the order of `answerWeights`; each weight is
 * drawn from the answer's own stream).
 * Each says whether the broker received the POST (and then processed it by
 * its dedupe mode, docs/protocol.md 'Broker') and which reply the engine
 * sees. The POST is the durable write every answer ends.
 */
import type { Reply } from '../../../model/types.ts';
import { ANSWER_KNOBS, answerOffered, ANSWERS, type Answer } from '../options.ts';
import type { WorldEvent } from '../world.ts';
import { underDedupeWindow } from './dedupe-window.ts';
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
    apply: underDedupeWindow((w, e, ctx, tags) => stepEngine(ctx, w, e, tags, effect)),
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
