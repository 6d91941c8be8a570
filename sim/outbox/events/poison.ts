/**
 * A poison message (subsystem `fault`): one published body that kills the
 * engine whenever an engine is about to send it. Building its request runs
 * the engine out of memory, or its serializer panics: the POST never reaches
 * the broker. Marking a body is a fault within a budget of its own
 * (`--poison`, drawn by the swarm from a stream of its own); the crashes it
 * causes are the body's doing, so they draw nothing from the crash budget,
 * and, unlike every other fault, they go on once faults stop (the liveness
 * phase): an engine that reaches the POST of a poison body dies there, every
 * time, and the supervisor restarts it.
 *
 * The crash is a circumstance of an engine's own `step` (this kind wraps
 * it, `wraps`): the step that would leave the engine in `posting` with a
 * poison envelope ends with the engine gone and a fresh one started in its
 * place (the supervisor restarting it at once, one step: the world keeps
 * its engine count, so the liveness phase and the explorer's search for a
 * lasso see a crash loop as the steps the system takes by itself). Each such
 * crash is counted `poison-crash`. A restart takes a fresh pid (under
 * `--stable-ids`, the dead engine's own), so a rule set that retries a poison
 * body for ever would make a world without end of pids; after
 * {@link POISON_CRASHES_MAX} poison crashes in a world the engine comes back
 * under its own pid instead (a crash loop then returns to the same state),
 * and each such crash is counted `poison-crashes-full`: the bound is
 * reported, never silent.
 */
import { newEngineProc } from '../stepper.ts';
import type { World, WorldEvent } from '../world.ts';
import { idBody, splitIdBody } from '../id-body.ts';
import { bodyText } from '../../body-text.ts';
import { copyWorld, withChanges } from '../world-copy.ts';
import type { WorldContext } from './context.ts';
import { stepText, eventKind, type Apply, type EventKind, type Setting } from './kind.ts';
import { step as engineStep } from './engine.ts';
import { stableIdsIn } from './process.ts';
import { idText } from '../id-shape.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    /** Body `body` of `id` becomes a poison message: an engine about to send it dies. */
    poison: { id: string; body: string };
  }
  interface World {
    /** With poison bodies only (absent until the first): `id:body` of each body marked poison, sorted. */
    poisoned?: string[];
    /** With poison bodies only: crashes a poison body caused so far, up to {@link POISON_CRASHES_MAX}. */
    poisonCrashes?: number;
  }
}

type Poison = Extract<WorldEvent, { kind: 'poison' }>;

/** Poison crashes in a world after which the engine comes back under its own pid (the world stays finite). */
export const POISON_CRASHES_MAX = 2;

/** How many bodies may be marked poison; 0: none. */
const setting: Setting = {
  name: 'poison',
  flag: '--poison',
  help: {
    check: 'up to n published bodies may become poison messages (an engine about to send one dies); 0: off (default: drawn per seed)',
    explore: 'up to n published bodies may become poison messages (an engine about to send one dies; default 0: off)',
  },
  min: 0,
  max: 3,
  off: 0,
  stream: 'fault:poison',
  // On (one body) in one seed in eight.
  draw: (next) => (next() < 0.875 ? 0 : 1),
  words: (v) => `poisonMax=${v}`,
  banner: (v) => (v === 0 ? 'no poison message' : `poison messages ${v}`),
};

const budgetOf = (options: WorldContext['options']): number => options.settings?.[setting.name] ?? setting.off;

/** Whether an engine sending `id:body` would die. */
function poisonous(w: World, id: string, body: string): boolean {
  const list = w.poisoned;
  if (list === undefined) return false;
  const item = idBody(id, body);
  for (let i = 0; i < list.length; i++) if (list[i] === item) return true;
  return false;
}

/**
 * The crash of a poison body: engine `pid`'s step left it in `posting` with
 * a poison envelope, so it dies before its POST and the supervisor starts
 * another in its place, on the checked rules.
 */
function crashed(w: World, pid: number, ctx: WorldContext, tags: string[]): World {
  const next = copyWorld(w);
  const crashes = w.poisonCrashes ?? 0;
  const full = crashes >= POISON_CRASHES_MAX;
  // Under stable identities it comes back under its own pid, appended, as such a restart is. Once the bound
  // holds it comes back under its own pid in its own place (the engines stay in pid order, as the packed
  // explorer holds them). Else under the next pid, appended.
  const stable = stableIdsIn(ctx.options);
  const fresh = !full && !stable;
  const restarted = newEngineProc(fresh ? w.nextPid : pid, 'new', ctx.options.attemptsMax);
  const engines = stable || fresh ? w.engines.filter((p) => p.pid !== pid) : w.engines.map((p) => (p.pid === pid ? restarted : p));
  if (stable || fresh) engines.push(restarted);
  next.engines = engines;
  if (fresh) next.nextPid = w.nextPid + 1;
  next.poisonCrashes = full ? crashes : crashes + 1;
  tags.push(POISON_CRASH_TAG);
  if (full) tags.push(POISON_FULL_TAG);
  return next;
}

/** The tag of a poison body's crash: a pass that ends in one is not quiet (a crash loop), as one that POSTs is not. */
export const POISON_CRASH_TAG = 'fault:poison-crash';
const POISON_FULL_TAG = 'fault:poison-crashes-full';

/** An engine step, with the crash of a poison body it would send. */
function withPoison(inner: Apply): Apply {
  return (w, e, ctx, tags) => {
    const next = inner(w, e, ctx, tags);
    if (next.poisoned === undefined || !('pid' in e)) return next;
    let p = null;
    for (let i = 0; i < next.engines.length && p === null; i++) if (next.engines[i].pid === e.pid) p = next.engines[i];
    const env = p?.ctx.envelope ?? null;
    if (p === null || p.state !== 'posting' || env === null || !poisonous(next, env.id, env.body)) return next;
    return crashed(next, p.pid, ctx, tags);
  };
}

export const poison: EventKind<Poison> = eventKind({
  name: 'poison',
  group: 'fault',
  tag: 'fault',
  range: 'id',
  event: 'poison',
  enabled: (w, ctx, { id }) => {
    if (id === null || (w.poisoned?.length ?? 0) >= budgetOf(ctx.options)) return [];
    const out: Poison[] = [];
    for (const pub of w.published) {
      const [of, body] = splitIdBody(pub);
      if (of === id && !poisonous(w, id, body)) out.push({ kind: 'poison', id, body });
    }
    return out;
  },
  reads: ['published', 'poisoned'],
  // Poison bodies are counted from 0: with no budget none is ever marked.
  inWorld: (ctx) => budgetOf(ctx.options) > 0,
  weight: (_w, ctx) => (budgetOf(ctx.options) > 0 ? 2 : 0),
  apply: (w, e, _ctx, tags) => {
    if (poisonous(w, e.id, e.body)) return w;
    tags.push('fault:poison');
    return withChanges(w, { poisoned: [...(w.poisoned ?? []), idBody(e.id, e.body)].sort() });
  },
  label: (e) => `body ${bodyText(e.body)} of ${idText(e.id)} becomes a poison message`,
  counter: 'fault:poison',
  draw: (e, v) => ({
    from: 'Outbox',
    to: 'Outbox',
    broken: true,
    text: stepText(v, v.label),
    note: { over: 'Outbox', text: `fault: an engine about to send ${idText(e.id)} = ${bodyText(e.body)} dies (out of memory, a serializer panic)` },
  }),
  hidden: 'a body that kills the engine about to send it',
  knob: { stream: setting.stream, weight: (options) => (budgetOf(options) > 0 ? 1 : 0), draw: 'setting' },
  setting,
  slots: ['poisoned', 'poisonCrashes'],
  // The engine's step into `posting` is where a poison body kills it.
  wraps: { of: (k) => k === engineStep, apply: withPoison },
  variants: [
    {
      name: 'poison-crash',
      tag: 'fault',
      counter: POISON_CRASH_TAG,
      hidden: 'the engine dies building the POST of a poison body; the supervisor restarts it',
      doc: {
        enabled: 'an engine step that would leave the engine in `posting` with a poison body in its envelope; also once faults stop',
        does: 'the engine dies before its POST (the broker receives nothing) and a fresh engine is started in its place on the checked rules, in the same step (under `--stable-ids`, under its pid); its claim, and everything durable, stays. Draws nothing from the crash budget',
        stands: 'a poison message crashing its consumer on every delivery: a Kafka Connect or Debezium task that dies on one record, a Sidekiq or Hangfire job that runs the worker out of memory, a serializer that panics',
      },
    },
    {
      name: 'poison-crashes-full',
      tag: 'fault',
      counter: POISON_FULL_TAG,
      doc: {
        enabled: `a \`poison-crash\` after ${POISON_CRASHES_MAX} of them in the world`,
        does: 'the same step, tagged: the bound is reached, so the engine comes back under its own pid (it then finds its claim as its own), and a crash loop returns to a state it was in',
        stands: 'none: the bound that keeps the model finite, reported rather than silent',
      },
    },
  ],
  doc: {
    example: 'body A of a becomes a poison message',
    enabled: `poison messages are on (\`--poison\` N > 0, \`poisonMax=N\` in the options line), fewer than N bodies marked, and \`a\`'s body \`A\` reached the outbox (a record write) and is not marked; before faults stop`,
    does: 'marks the body poison: from now on, also once faults stop, an engine whose step would take it to the POST of that body dies there (`poison-crash`)',
    stands: 'a message that kills the relay on every attempt: an out-of-memory building a huge body, a serializer that panics (Kafka Connect and Debezium poison records, Sidekiq and Hangfire jobs that OOM the worker)',
  },
});
