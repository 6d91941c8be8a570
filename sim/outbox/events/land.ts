/**
 * Late landing (subsystem `broker`): the engine times out while its POST is
 * still on the wire (`timeout-in-transit`), and the POST reaches the broker
 * later (`land`), after other steps, after a later POST for the same id,
 * after the engine classified the attempt or died. Any POST in transit may
 * land next, so landings reorder. The broker processes it then as any POST
 * it receives (its dedupe mode, its dedupe window); nobody reads the reply.
 *
 * Everything of it is declared here: its two events, its world setting (the
 * bound on POSTs in transit, `--late-landing`, 0: off, drawn by the swarm
 * from a stream of its own) and the world slot it owns (the POSTs in
 * transit). A landing is enabled while healing too: the network still
 * delivers what it carries, so the world is quiet only once nothing is in
 * transit (`bySelf`).
 */
import { brokerReceives, receiptTags } from './broker-keys.ts';
import type { World, WorldEvent } from '../world.ts';
import { bodyText } from '../../body-text.ts';
import { withChanges } from '../world-copy.ts';
import type { WorldContext } from './context.ts';
import { stepEngine, type AnswerEffect } from './engine-step.ts';
import { stepText, weightOf, eventKind, type EventKind, type Setting } from './kind.ts';
import { idText } from '../id-shape.ts';

/** A POST on its way to the broker: what it carries. */
export interface InTransit {
  id: string;
  body: string;
  key: string;
}

declare module '../world.ts' {
  interface DeclaredEvents {
    /** The answer `timeout-in-transit`: the engine times out, its POST stays in transit. */
    'post-in-transit': { pid: number };
    /** The POST in transit at `index` reaches the broker. */
    land: { index: number; id: string; body: string };
  }
  interface World {
    /**
     * Under late landing only (absent otherwise, and when none is): POSTs
     * sent whose broker has not yet received them, oldest first, at most the
     * bound. A `land` delivers any one of them (docs/faults.md, `land`).
     */
    inTransit?: readonly InTransit[];
  }
}

type InTransitEvent = Extract<WorldEvent, { kind: 'post-in-transit' }>;
type Land = Extract<WorldEvent, { kind: 'land' }>;

/** The bound on POSTs in transit at once; 0: late landing is off. */
const setting: Setting = {
  name: 'lateLanding',
  flag: '--late-landing',
  help: {
    check: 'a timed-out POST may stay in transit and land later, at most n at once; 0: off (default: drawn per seed)',
    explore: 'a timed-out POST may stay in transit and land later, at most n at once (default 0: off)',
  },
  min: 0,
  max: 10,
  off: 0,
  stream: 'broker:in-transit',
  // On (1-6 POSTs) in one seed in four, drawn as the dedupe window is.
  draw: (next) => (next() < 0.75 ? 0 : 1 + Math.floor(next() * 6)),
  words: (v) => `inTransitMax=${v}`,
  banner: (v) => (v === 0 ? 'late landing off' : `late landing (at most ${v} POSTs in transit)`),
};

const boundOf = (options: WorldContext['options']): number => options.settings?.[setting.name] ?? setting.off;

/** The POSTs in transit in `w` (none when the slot is absent). */
const inTransitOf = (w: World): readonly InTransit[] => w.inTransit ?? [];

/** `w` with `list` in transit; an empty list leaves the slot undefined, so a world's key does not remember there was one. */
function withInTransit(w: World, list: readonly InTransit[]): World {
  // Left undefined, not deleted: a world keeps its shape (outbox-system.ts, `initial`); undefined encodes as absent.
  return withChanges(w, { inTransit: list.length > 0 ? list : undefined });
}

const IN_TRANSIT_NAME = 'timeout-in-transit';
const IN_TRANSIT: AnswerEffect = { name: IN_TRANSIT_NAME, received: false, reply: 'timeout' };
const IN_TRANSIT_HIDDEN = 'timeout; the POST is still on its way and may land later';
const inTransitWeight = weightOf(IN_TRANSIT_NAME);

/**
 * The engine times out while its POST is still on the wire. The POST joins
 * the world's POSTs in transit; until a `land` delivers it, the broker has
 * not seen it. Offered only while fewer than the bound are in transit; the
 * answer that fills the list is tagged `fault:in-transit-full`, so a run
 * says when the bound held it back.
 */
export const timeoutInTransit: EventKind<InTransitEvent> = eventKind({
  name: IN_TRANSIT_NAME,
  group: 'broker',
  tag: 'fault',
  range: 'engine',
  event: 'post-in-transit',
  enabled: (w, ctx, { engine }) =>
    engine?.state === 'posting' && !w.healing && inTransitOf(w).length < boundOf(ctx.options) ? [{ kind: 'post-in-transit', pid: engine.pid }] : [],
  reads: ['healing', 'inTransit'],
  // The list in transit is never shorter than empty: with a bound of 0 none is ever posted into it.
  inWorld: (ctx) => boundOf(ctx.options) > 0,
  engineStates: ['posting'],
  weight: (_w, ctx) => inTransitWeight(ctx.options),
  apply: (w, e, ctx, tags) => {
    const envelope = w.engines.find((p) => p.pid === e.pid)?.ctx.envelope ?? null;
    const from = tags.length;
    const next = stepEngine(ctx, w, e, tags, IN_TRANSIT);
    if (envelope === null || tags.indexOf('layer:post', from) < 0) return next;
    const list = [...inTransitOf(w), { id: envelope.id, body: envelope.body, key: envelope.key }];
    if (list.length >= boundOf(ctx.options)) tags.push('fault:in-transit-full');
    return withInTransit(next, list);
  },
  label: (e) => `e${e.pid} POST -> ${IN_TRANSIT_NAME}`,
  counter: `answer:${IN_TRANSIT_NAME}`,
  draw: (e, v) => {
    const env = v.enginesBefore.find((p) => p.pid === e.pid)?.ctx.envelope ?? null;
    const from = `e${e.pid}`;
    return {
      from,
      to: 'Broker',
      broken: true,
      text: stepText(v, env === null ? `POST -> ${IN_TRANSIT_NAME}` : `POST ${idText(env.id)} = ${bodyText(env.body)} (key ${idText(env.key)}) -> ${IN_TRANSIT_NAME}`),
      note: { over: `${from},Broker`, text: `fault: ${IN_TRANSIT_HIDDEN}` },
    };
  },
  hidden: IN_TRANSIT_HIDDEN,
  // Its weight among the broker's answers, drawn from its own stream; 0 while late landing is off.
  knob: { stream: `answer:${IN_TRANSIT_NAME}`, weight: (options) => (boundOf(options) > 0 ? inTransitWeight(options) : 0), draw: 'on' },
  variants: [
    {
      name: 'in-transit-full',
      tag: 'fault',
      counter: 'fault:in-transit-full',
      doc: {
        enabled: 'a `timeout-in-transit` that makes N POSTs in transit, N the bound (`--late-landing`)',
        does: 'the same step, tagged: the bound is reached, so until one lands no answer leaves a POST in transit (the report counts how often the bound held late landing back)',
        stands: 'none: the bound that keeps the model finite, reported rather than silent',
      },
    },
  ],
  doc: {
    example: `e1 POST -> ${IN_TRANSIT_NAME}`,
    enabled: 'late landing is on (`--late-landing` N > 0; `inTransitMax=N` in the options line), the engine is posting, faults have not stopped and fewer than N POSTs are in transit',
    does: 'the broker receives nothing yet: the POST joins the POSTs in transit (a `land` delivers it later, in any order); the engine sees `timeout`',
    stands:
      'librdkafka\'s "message is delivered to Kafka, no delivery report": the request times out client-side while it is still on the wire and is stored later, after retries and other requests (Kafka\'s reordering with more than one request in flight)',
  },
});

/** The broker receives the POST in transit at `e.index`. */
function landApply(w: World, e: Land, ctx: WorldContext, tags: string[]): World {
  const list = inTransitOf(w);
  const post = list[e.index];
  const received = brokerReceives(ctx.options.broker, w, { id: post.id, body: post.body, key: post.key });
  tags.push('fault:land');
  receiptTags(received, tags);
  const broker = received.holding !== null ? { ...w.broker, [post.id]: received.holding } : w.broker;
  return withInTransit(withChanges(w, { broker }), list.filter((_, i) => i !== e.index));
}

export const land: EventKind<Land> = eventKind({
  name: 'land',
  group: 'broker',
  tag: 'fault',
  range: 'world',
  event: 'land',
  enabled: (w) => {
    // A loop into a literal, not `.map` (as the operator's kinds: see `enabled` in kind.ts).
    const out: Land[] = [];
    const list = inTransitOf(w);
    for (let index = 0; index < list.length; index++) out.push({ kind: 'land', index, id: list[index].id, body: list[index].body });
    return out;
  },
  reads: ['inTransit'],
  // Only a POST taken in transit (post-in-transit, above) puts one there: with a bound of 0, never.
  inWorld: (ctx) => boundOf(ctx.options) > 0,
  weight: () => 1,
  // Under a dedupe window a landing is a broker step like an answer (dedupe-window.ts wraps it).
  apply: landApply,
  label: (e) => `POST ${idText(e.id)} = ${bodyText(e.body)} lands late (in transit #${e.index})`,
  counter: 'fault:land',
  draw: (e, v) => ({
    from: 'Broker',
    to: 'Broker',
    broken: true,
    text: stepText(v, `late POST ${idText(e.id)} = ${bodyText(e.body)} arrives`),
    note: { over: 'Broker', text: 'fault: a POST the engine saw time out reaches the broker now' },
  }),
  hidden: 'a POST the engine saw time out reaches the broker now',
  knob: { stream: setting.stream, weight: (options) => (boundOf(options) > 0 ? 1 : 0), draw: 'setting' },
  setting,
  slots: ['inTransit'],
  // The network delivers what it carries once faults stop too: a steady step of the liveness search,
  // and the world is not quiet while one is in transit.
  steadyStep: true,
  bySelf: true,
  doc: {
    example: 'POST a = A lands late (in transit #0)',
    enabled: 'a POST is in transit (left by `timeout-in-transit`); any of them, in any order, also once faults stop',
    does: 'the broker receives it now and processes it by its dedupe mode (stores it, drops it as a duplicate, or replaces what it holds); the reply goes nowhere',
    stands:
      'a produce request delivered after its client gave up on it (librdkafka\'s "delivered, no delivery report"), and Kafka\'s reordering with several requests in flight: an older request stored after a newer one',
  },
});
