/**
 * The broker's answers to a POST (subsystem `broker`), one entry per answer
 * (each weight drawn from the answer's own stream, kept by its name). This
 * list is the menu of answers: the `Answer` type and every list of answers
 * elsewhere are read off it.
 * Each says whether the broker received the POST (and then processed it by
 * its dedupe mode, docs/protocol.md 'Broker') and which reply the engine
 * sees. The POST is the durable write every answer ends.
 */
import type { RuleSet } from '../../../model/rules.ts';
import type { Reply } from '../../../model/types.ts';
import type { WorldOptions } from '../options.ts';
import type { WorldRules } from './context.ts';
import type { WorldEvent } from '../world.ts';
import { bodyText } from '../../body-text.ts';
import { FENCED_POST_TAG, stepEngine, type AnswerEffect } from './engine-step.ts';
import { stepText, weightOf, eventKind, type EventKind } from './kind.ts';
import { idText } from '../id-shape.ts';
import { nothingFailsIn } from '../nothing-fails.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    answer: { pid: number; answer: Answer };
  }
}

type AnswerEvent = Extract<WorldEvent, { kind: 'answer' }>;

interface AnswerSpec {
  received: boolean;
  /** The reply the engine sees; null: the broker's own (`ok`, or `conflict-409` for a duplicate under `id-409`). */
  reply: Reply | null;
  /** Set when the engine cannot tell what the broker did: what went wrong, in a few words. */
  hidden?: string;
  /** The real failure it stands for. */
  stands: string;
  /** The engine dies during the POST (a crash: needs one left in the budget, and cannot persist once faults stop). */
  crash?: boolean;
  /**
   * Another answer this one does the same as at the broker, with another
   * reply: it is offered only where a rule set classifies the two replies
   * apart ({@link answerInWorld}); elsewhere that answer stands for both. It
   * draws no weight of its own (it takes that answer's) and is never the
   * broker's steady answer, so a world whose rule sets read the two alike is
   * the world it was before the answer existed, seed for seed and state for
   * state.
   */
  sameAs?: StandaloneAnswer;
}

/** The answers that stand on their own (every answer but those `sameAs` another). */
type StandaloneAnswer = 'refuse-400';

/**
 * The answers, in the order of their events in a choice group (which decides
 * which answer a seed draws) and in trace format 1's `answerWeights`.
 */
const SPECS = {
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
    crash: true,
  },
  'garbled-unsent': {
    received: false,
    reply: 'garbled-200',
    hidden: 'the failure reply cannot be parsed, nothing stored',
    stands: 'a failure response cut short so that it cannot be parsed; nothing was stored',
  },
  // Last: a new answer moves no other answer's place in a choice group.
  'refuse-ok-false': {
    received: false,
    reply: 'ok-false',
    stands: 'the broker answers 200 with a body that says ok:false: it declined the request (a definite refusal an HTTP status does not show)',
    sameAs: 'refuse-400',
  },
} satisfies Record<string, AnswerSpec>;

/** A broker answer to a POST: one of the entries below. */
export type Answer = keyof typeof SPECS;

const spec = (name: Answer): AnswerSpec => SPECS[name];

/** Every answer, in table order. */
export const ANSWER_NAMES: readonly Answer[] = Object.keys(SPECS) as Answer[];

/** The healthy answer: the one whose reply is the broker's own (what a broker gives once healed, in half the seeds). */
export const HEALTHY_ANSWER: Answer = ANSWER_NAMES.find((a) => spec(a).reply === null && spec(a).received) ?? ANSWER_NAMES[0];

/** Whether a rule set classifies two replies apart (a classify that throws on one is held to it in the run: it is asked). */
function toldApart(rules: RuleSet, a: Reply, b: Reply): boolean {
  try {
    return rules.classify(a) !== rules.classify(b);
  } catch {
    return true;
  }
}

/** Per world's rule sets, per answer the same as another: whether it is told apart. */
const toldCache = new WeakMap<WorldRules, Map<Answer, boolean>>();

/**
 * Whether `answer` is in a world of these rule sets: every answer is, but
 * one `sameAs` another, which is only where some rule set of the world
 * classifies its reply apart from that answer's. Classify is pure and only
 * it reads the reply, so elsewhere the two lead to the same worlds. Asked
 * when an engine first posts, not as the world is set up: it calls the
 * rule sets' classify, and a classify that never returns is reported where
 * the run was (seed and step, or search depth).
 */
export function answerInWorld(answer: Answer, worldRules: WorldRules): boolean {
  const a: AnswerSpec = spec(answer);
  if (a.sameAs === undefined || worldRules.answersApart === true) return true;
  let known = toldCache.get(worldRules);
  if (known === undefined) toldCache.set(worldRules, (known = new Map()));
  let told = known.get(answer);
  if (told === undefined) {
    const reply = a.reply as Reply;
    const other = spec(a.sameAs).reply as Reply;
    told = toldApart(worldRules.rules, reply, other) || (worldRules.oldRules !== undefined && toldApart(worldRules.oldRules, reply, other));
    known.set(answer, told);
  }
  return told;
}

/** Answers offered only where the rule sets tell their reply apart from another's, with that other (`sameAs`). */
export const ANSWERS_SAME_AS: ReadonlyMap<Answer, Answer> = new Map(
  (Object.entries(SPECS) as [Answer, AnswerSpec][]).flatMap(([name, a]) => (a.sameAs === undefined ? [] : [[name, a.sameAs] as [Answer, Answer]])),
);

/** Whether the broker may give `answer` to a POST: once faults stop only the steady answer, and a crash in the POST only while crashes are left. */
export function answerOffered(options: WorldOptions, answer: Answer, healing: boolean, crashes: number): boolean {
  if (healing && answer !== options.healAnswer) return false;
  // A world where nothing fails (nothing-fails.ts) offers the healthy answer only: a search lists every answer whatever its weight.
  if (answer !== HEALTHY_ANSWER && options.crashesMax === 0 && nothingFailsIn(options, HEALTHY_ANSWER)) return false;
  return spec(answer).crash !== true || crashes < options.crashesMax;
}

/** The event of the broker giving `answer` to engine `pid`'s POST. */
export function answerEvent(pid: number, answer: Answer): WorldEvent {
  return { kind: 'answer', pid, answer };
}

/** The durable write every answer ends (declared once, on the healthy answer). */
export const POST_WRITE = 'POST (broker received)';

function answerKind(name: Answer, index: number): EventKind<AnswerEvent> {
  const a = spec(name);
  const healthy = name === HEALTHY_ANSWER;
  const crash = a.crash === true ? [`fault:${name}`, 'crash@post-received'] : undefined;
  const effect: AnswerEffect = { name, received: a.received, reply: a.reply, ...(crash ? { crash } : {}) };
  const seen = a.reply === null ? "the broker's own reply" : crash ? 'nothing: the engine is gone' : `\`${a.reply}\``;
  // An answer the same as another takes that one's weight (it draws none of its own).
  const weight = weightOf(a.sameAs ?? name);
  const sameAs = a.sameAs;
  return eventKind({
    name,
    group: 'broker',
    tag: healthy ? 'normal' : 'fault',
    range: 'engine',
    event: 'answer',
    owns: (e) => e.answer === name,
    enabled: (w, ctx, { engine }) =>
      engine?.state === 'posting' && answerOffered(ctx.options, name, w.healing, w.crashes) && (sameAs === undefined || answerInWorld(name, ctx.worldRules))
        ? [{ kind: 'answer', pid: engine.pid, answer: name }]
        : [],
    reads: ['healing', 'crashes'],
    engineStates: ['posting'],
    // Once faults stop the broker gives its one steady answer, whatever its fault weight was.
    weight: (w, ctx) => (w.healing ? 1 : weight(ctx.options)),
    apply: (w, e, ctx, tags) => stepEngine(ctx, w, e, tags, effect),
    label: (e) => `e${e.pid} POST -> ${e.answer}`,
    counter: crash ? crash[0] : `answer:${name}`,
    draw: (e, v) => {
      const env = v.enginesBefore.find((p) => p.pid === e.pid)?.ctx.envelope ?? null;
      // Fenced out: nothing reached the broker, so no arrow to it.
      if (v.tags.includes(FENCED_POST_TAG)) return { from: `e${e.pid}`, to: `e${e.pid}`, broken: false, text: stepText(v, `POST${env === null ? '' : ` ${idText(env.id)} = ${bodyText(env.body)}`} not sent: its claim is gone and its rules fence the POST; it abandons the attempt`) };
      // The broker's own reply, and a POST it dropped, follow in the step's durable notes.
      const what = env === null ? `POST -> ${e.answer}` : `POST ${idText(env.id)} = ${bodyText(env.body)} (key ${idText(env.key)}) -> ${e.answer}`;
      const from = `e${e.pid}`;
      return {
        from,
        to: 'Broker',
        broken: a.hidden !== undefined,
        text: stepText(v, what),
        ...(a.hidden !== undefined ? { note: { over: `${from},Broker`, text: `fault: ${a.hidden}` } } : {}),
      };
    },
    ...(a.hidden !== undefined ? { hidden: a.hidden } : {}),
    knob: sameAs === undefined ? { stream: `answer:${name}`, weight, draw: healthy ? 'base' : 'on', v1: { list: 'answerWeights', index } } : null,
    ...(crash || sameAs !== undefined ? {} : { steady: healthy ? ('healthy' as const) : ('failure' as const) }),
    ...(healthy ? { durable: [{ write: POST_WRITE, at: 'posting' }] } : {}),
    ...(crash ? { crashDuring: { write: POST_WRITE, tag: crash[1] } } : {}),
    doc: {
      example: `e1 POST -> ${name}`,
      enabled: crash
        ? 'the engine is posting and crashes are left'
        : sameAs !== undefined
          ? `the engine is posting, and a rule set of the world classifies \`${String(a.reply)}\` apart from \`${String(spec(sameAs).reply)}\` (elsewhere \`${sameAs}\` stands for both: no seed and no search changes)`
          : 'the engine is posting',
      does: `the broker ${a.received ? 'receives it (and stores it per its dedupe mode)' : 'stores nothing'}; the engine sees ${seen}`,
      stands: a.stands,
    },
  });
}

/** The answers, in table order. */
export const answers: readonly EventKind<AnswerEvent>[] = ANSWER_NAMES.map(answerKind);

/**
 * A world with one broker answer switched off (weight 0 in random runs; the
 * steady answer moves to the healthy one if it was that one). The mutant
 * table uses it for a mistake that is right in such a world until a newer
 * fault exists: without `lost-reply` a timeout never stores when answered,
 * so only a late landing (land.ts) stores a timed-out POST.
 */
export function withoutAnswer(options: WorldOptions, answer: string): WorldOptions {
  const name = ANSWER_NAMES.find((a) => a === answer);
  if (name === undefined) throw new Error(`no broker answer ${answer}`);
  return { ...options, weights: { ...options.weights, [name]: 0 }, healAnswer: options.healAnswer === name ? HEALTHY_ANSWER : options.healAnswer };
}
