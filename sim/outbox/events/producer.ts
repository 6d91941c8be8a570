/** The producer (subsystem `producer`): the worker writing result files into `results/`. */
import { bodyName, type WorldEvent } from '../world.ts';
import { copyWorld, withEntry } from '../world-copy.ts';
import { eventKind, type EventKind } from './kind.ts';
import { idText } from '../id-shape.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    produce: { id: string };
  }
}

type Produce = Extract<WorldEvent, { kind: 'produce' }>;

export const produce: EventKind<Produce> = eventKind({
  name: 'produce',
  group: 'producer',
  tag: 'normal',
  range: 'id',
  event: 'produce',
  enabled: (w, ctx, { id }) => (id !== null && w.produced[id] < ctx.options.bodiesPerId ? [{ kind: 'produce', id }] : []),
  reads: ['produced'],
  apply: (w, e, ctx, tags) => {
    const k = w.produced[e.id];
    const body = bodyName(ctx.ids.indexOf(e.id), k, ctx.options.bodiesPerId, ctx.options.sameBodies === true, ctx.options.bodyShape);
    const replacing = w.live[e.id] !== undefined;
    const sending = w.engines.some((p) => p.ctx.id === e.id && p.state !== 'idle');
    tags.push('layer:written');
    if (replacing) tags.push('replace-live');
    if (replacing && sending) tags.push('fault:replace-during-send');
    const next = copyWorld(w);
    next.live = withEntry(w.live, e.id, { id: e.id, body, generation: w.nextGeneration });
    next.nextGeneration = w.nextGeneration + 1;
    next.produced = withEntry(w.produced, e.id, k + 1);
    return next;
  },
  label: (e) => `produce ${idText(e.id)}`,
  counter: 'layer:written',
  draw: (e, v) => ({
    from: 'Producer',
    to: 'Producer',
    broken: false,
    text: `${v.n}. write ${v.durable === '' ? `results/${idText(e.id)}` : v.durable}`,
    ...(v.tags.includes('fault:replace-during-send') ? { note: { over: 'Producer', text: `fault: results/${idText(e.id)} replaced while being sent` } } : {}),
  }),
  knob: null,
  variants: [
    {
      name: 'replace-during-send',
      tag: 'fault',
      counter: 'fault:replace-during-send',
      hidden: 'the file was replaced while being sent',
      doc: {
        enabled: 'a `produce` while an engine is working on that id',
        does: 'the same step, tagged: the file was replaced while the previous generation was being sent',
        stands: 'a newer result published while the gateway sends the older one',
      },
    },
  ],
  doc: {
    example: 'produce a',
    enabled: 'fewer than `bodiesPerId` bodies written for `a`, before faults stop',
    does: 'writes the next body for `a` into `results/` as a new generation, replacing any live file',
    stands: 'a worker publishing a newer result for a task',
  },
});
