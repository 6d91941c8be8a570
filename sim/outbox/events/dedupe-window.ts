/**
 * A broker whose deduplication forgets (subsystem `broker`): under a dedupe
 * window of W broker steps, the broker may forget an id's dedupe entry (its
 * id, or its key under `key`) once W answers to POSTs have passed since it
 * made the entry, as SQS FIFO's five-minute deduplication interval or NATS's
 * duplicate window do. What it delivered stays delivered (`World.broker`);
 * only its memory goes, so the next POST for the id is taken as a first one
 * and stored again: a second copy of a body, or a body that replaces the one
 * delivered.
 *
 * Everything of it is declared here: its event, its world setting (the
 * window, `--dedupe-window`, 0: permanent, drawn by the swarm from a stream
 * of its own), the world slot it owns (the broker's memory), and how it
 * changes the broker's steps (its answers, and POSTs landing late).
 */
import type { World, WorldEvent } from '../world.ts';
import { withChanges } from '../world-copy.ts';
import type { WorldContext } from './context.ts';
import { stepText, type Apply, eventKind, type EventKind, type Setting } from './kind.ts';
import { idText } from '../id-shape.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    forget: { id: string };
  }
  interface World {
    /**
     * Under a dedupe window only (absent otherwise): per id whose dedupe
     * entry the broker still keeps, the broker steps since it made it (up to
     * the window). An id the broker holds but that is missing here was
     * forgotten: its next POST is taken as new.
     */
    dedupe?: Readonly<Record<string, number>>;
  }
}

type Forget = Extract<WorldEvent, { kind: 'forget' }>;

/**
 * The id of the POST a broker step processes: the one its engine is posting
 * (an answer), or the one it names (a POST landing late, events/land.ts).
 */
function postedId(w: World, e: WorldEvent): string | null {
  if ('pid' in e) return w.engines.find((p) => p.pid === e.pid)?.ctx.envelope?.id ?? null;
  return 'id' in e ? e.id : null;
}

/** The window: broker steps after which the broker may forget an id. */
const setting: Setting = {
  name: 'dedupeWindow',
  flag: '--dedupe-window',
  help: {
    check: 'the broker may forget an id n broker steps after storing it; 0: never (default: drawn per seed)',
    explore: 'the broker may forget an id n broker steps after storing it (default 0: never)',
  },
  min: 0,
  max: 1000,
  off: 0,
  stream: 'broker:dedupe-window',
  // On (1-6 broker steps) in one seed in four, else off (permanent). A forgetful broker stores again
  // what a permanent one drops, which hides the flaws that need the broker to keep the first body
  // (the phantom deliveries of docs/rules.md), so most seeds keep the shipped broker's permanent memory.
  draw: (next) => (next() < 0.75 ? 0 : 1 + Math.floor(next() * 6)),
  words: (v) => `dedupeWindow=${v}`,
  banner: (v) => `dedupe window ${v === 0 ? 'off' : v}`,
};

const windowOf = (ctx: WorldContext): number => ctx.options.settings?.[setting.name] ?? setting.off;

/** The broker's dedupe memory in `w` (`World.dedupe`), or undefined without a window. */
export function dedupeMemory(w: World): Readonly<Record<string, number>> | undefined {
  return w.dedupe;
}

const withMemory = (w: World, dedupe: Record<string, number>): World => withChanges(w, { dedupe });

/**
 * A broker step under the window (an answer, or a POST landing late): a
 * POST for a forgotten id is processed as the first for it, every step is
 * one broker step (each entry ages by one, up to the window), and a POST the
 * broker stored makes a fresh entry. Without a window the step is `apply`
 * unchanged, and the world gets no slot.
 */
function underDedupeWindow(apply: Apply): Apply {
  return (w, e, ctx, tags) => {
    const window = windowOf(ctx);
    if (window === 0) return apply(w, e, ctx, tags);
    const memory = dedupeMemory(w) ?? {};
    const id = postedId(w, e);
    const forgotten = id !== null && w.broker[id] !== undefined && memory[id] === undefined;
    let seen = w;
    if (forgotten) {
      const { [id]: _held, ...rest } = w.broker;
      seen = withChanges(w, { broker: rest });
    }
    const from = tags.length;
    const next = apply(seen, e, ctx, tags);
    const stored = tags.indexOf('layer:stored', from) >= 0;
    const dedupe: Record<string, number> = {};
    for (const k of Object.keys(memory)) dedupe[k] = Math.min(memory[k] + 1, window);
    if (stored && id !== null) dedupe[id] = 0;
    // A forgotten id whose POST stored nothing: the broker still holds what it delivered.
    const broker = forgotten && !stored ? { ...next.broker, [id]: w.broker[id] } : next.broker;
    return withMemory({ ...next, broker }, dedupe);
  };
}

export const forget: EventKind<Forget> = eventKind({
  name: 'forget',
  group: 'broker',
  tag: 'fault',
  range: 'id',
  event: 'forget',
  enabled: (w, ctx, { id }) => {
    const window = windowOf(ctx);
    if (id === null || window === 0 || w.healing) return [];
    const age = dedupeMemory(w)?.[id];
    return age !== undefined && age >= window ? [{ kind: 'forget', id }] : [];
  },
  reads: ['healing', 'dedupe'],
  inWorld: (ctx) => windowOf(ctx) !== 0,
  weight: () => 1,
  apply: (w, e, _ctx, tags) => {
    const { [e.id]: _gone, ...rest } = dedupeMemory(w) ?? {};
    tags.push('fault:forget');
    return withMemory(w, rest);
  },
  label: (e) => `broker forgets ${idText(e.id)}`,
  counter: 'fault:forget',
  draw: (e, v) => ({
    from: 'Broker',
    to: 'Broker',
    broken: true,
    text: stepText(v, `forgets ${idText(e.id)}`),
    note: { over: 'Broker', text: `fault: the dedupe entry of ${idText(e.id)} expired` },
  }),
  hidden: 'the broker forgot the id: its next POST is taken as new',
  knob: { stream: setting.stream, weight: (options) => ((options.settings?.[setting.name] ?? setting.off) > 0 ? 1 : 0), draw: 'setting' },
  setting,
  slots: ['dedupe'],
  // Every step of the broker but its own forgetting (an answer to a POST, a POST landing late) is a
  // broker step of the window.
  wraps: { of: (k) => k.group === 'broker' && k.event !== 'forget', apply: underDedupeWindow },
  doc: {
    example: 'broker forgets a',
    enabled: 'a dedupe window is set (`dedupeWindow` W > 0), faults have not stopped, and the broker made `a`\'s dedupe entry at least W broker steps (answers to POSTs) ago',
    does: "drops `a`'s dedupe entry; the broker still holds what it delivered, and takes the next POST for `a` as the first (stores it, answers `ok`)",
    stands: "a broker's deduplication that expires (SQS FIFO's 5-minute deduplication interval, NATS's duplicate window): a re-send after it is a second delivery",
  },
});
