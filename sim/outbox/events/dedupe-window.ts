/**
 * A broker whose deduplication forgets (subsystem `broker`): under a dedupe
 * window of W broker steps, the broker may forget an id's dedupe entry (its
 * id, or its key under `key`) once W answers to POSTs have passed since it
 * made the entry, as SQS FIFO's five-minute deduplication interval or NATS's
 * duplicate window do. What it delivered stays delivered (`World.broker`);
 * only its memory goes, so the next POST for the id is taken as a first one
 * and stored again: a second copy of a body, or a body that replaces the one
 * delivered. The window is a world option (`dedupeWindow`, 0: permanent);
 * the swarm draws it from a stream of its own.
 */
import { DEDUPE_WINDOW_KNOB } from '../options.ts';
import type { World, WorldEvent } from '../world.ts';
import type { WorldContext } from './context.ts';
import { stepText, type EventKind } from './kind.ts';

type Forget = Extract<WorldEvent, { kind: 'forget' }>;
type Apply<E extends WorldEvent> = (w: World, e: E, ctx: WorldContext, tags: string[]) => World;

/** The id an engine's answer is about: the envelope it is posting. */
export function postingId(w: World, e: { pid: number }): string | null {
  return w.engines.find((p) => p.pid === e.pid)?.ctx.envelope?.id ?? null;
}

const windowOf = (ctx: WorldContext): number => ctx.options.dedupeWindow ?? 0;

/**
 * A broker step under the window (an answer, or a POST landing late; `idOf`
 * names the id of the POST it processes): a POST for a forgotten id is processed
 * as the first for it, every answer is one broker step (each entry ages by
 * one, up to the window), and a POST the broker stored makes a fresh entry.
 * Without a window the answer is `apply` unchanged, and the world gets no
 * `dedupe` slot.
 */
export function underDedupeWindow<E extends WorldEvent>(apply: Apply<E>, idOf: (w: World, e: E) => string | null): Apply<E> {
  return (w, e, ctx, tags) => {
    const window = windowOf(ctx);
    if (window === 0) return apply(w, e, ctx, tags);
    const memory = w.dedupe ?? {};
    const id = idOf(w, e);
    const forgotten = id !== null && w.broker[id] !== undefined && memory[id] === undefined;
    let seen = w;
    if (forgotten) {
      const { [id]: _held, ...rest } = w.broker;
      seen = { ...w, broker: rest };
    }
    const from = tags.length;
    const next = apply(seen, e, ctx, tags);
    const stored = tags.indexOf('layer:stored', from) >= 0;
    const dedupe: Record<string, number> = {};
    for (const k of Object.keys(memory)) dedupe[k] = Math.min(memory[k] + 1, window);
    if (stored && id !== null) dedupe[id] = 0;
    // A forgotten id whose POST stored nothing: the broker still holds what it delivered.
    const broker = forgotten && !stored ? { ...next.broker, [id]: w.broker[id] } : next.broker;
    return { ...next, broker, dedupe };
  };
}

export const forget: EventKind<Forget> = {
  name: 'forget',
  group: 'broker',
  tag: 'fault',
  range: 'id',
  event: 'forget',
  enabled: (w, ctx, { id }) => {
    const window = windowOf(ctx);
    if (id === null || window === 0 || w.healing) return [];
    const age = w.dedupe?.[id];
    return age !== undefined && age >= window ? [{ kind: 'forget', id }] : [];
  },
  weight: () => 1,
  apply: (w, e, _ctx, tags) => {
    const { [e.id]: _gone, ...rest } = w.dedupe ?? {};
    tags.push('fault:forget');
    return { ...w, dedupe: rest };
  },
  label: (e) => `broker forgets ${e.id}`,
  counter: 'fault:forget',
  draw: (e, v) => ({
    from: 'Broker',
    to: 'Broker',
    broken: true,
    text: stepText(v, `forgets ${e.id}`),
    note: { over: 'Broker', text: `fault: the dedupe entry of ${e.id} expired` },
  }),
  hidden: 'the broker forgot the id: its next POST is taken as new',
  knob: { stream: DEDUPE_WINDOW_KNOB.stream, weight: (options) => ((options.dedupeWindow ?? 0) > 0 ? 1 : 0), draw: DEDUPE_WINDOW_KNOB.draw },
  doc: {
    example: 'broker forgets a',
    enabled: 'a dedupe window is set (`dedupeWindow` W > 0), faults have not stopped, and the broker made `a`\'s dedupe entry at least W broker steps (answers to POSTs) ago',
    does: "drops `a`'s dedupe entry; the broker still holds what it delivered, and takes the next POST for `a` as the first (stores it, answers `ok`)",
    stands: "a broker's deduplication that expires (SQS FIFO's 5-minute deduplication interval, NATS's duplicate window): a re-send after it is a second delivery",
  },
};
